import { describe, expect, it } from "vitest";
import { orderTarget } from "./order-target";

describe("orderTarget (decision 41)", () => {
  it.each([
    ["index", "/", "", "de", "/take/de"],
    ["index-2", "/fr", "?utm_source=fb", "fr", "/take/fr?utm_source=fb"],
    ["summary", "/summary", "?src=v2", "gb", "/offer2/gb?src=v2"],
    ["summary-2", "/summary/se", "?src=v3", "se", "/get/se?src=v3"],
    ["summary-2", "/summary/at", "?src=v4", "at", "/offerV4/at?src=v4"],
    ["summary", "/summary", "?src=v31&utm_medium=cpc", "de", "/1get/de?src=v31&utm_medium=cpc"],
    ["summary-2", "/summary/it", "?src=v1a", "it", "/offera/it?src=v1a"],
    ["summary-2", "/summary/es", "?src=v6", "es", "/6offer/es?src=v6"],
    ["summary-2", "/summary/fr", "?src=v7", "fr", "/offerV7/fr?src=v7"],
    ["summary-2", "/summary/dk", "?src=v8", "dk", "/v8offer/dk?src=v8"],
    ["summary-2", "/summary/fi", "?src=v9", "fi", "/offerrecom/fi?src=v9"],
    ["summary-2", "/summary/ch", "?src=v10", "ch", "/lionoffer/ch?src=v10"],
    ["summary-2", "/summary/ch-fr", "?src=vsalt", "ch-fr", "/offersalt/ch-fr?src=vsalt"],
    ["summary-2", "/summary/be", "?src=v5", "be", "/offer2?src=v5"],
    ["summary", "/summary", "", "de", "/offer2"],
    ["summary-2", "/summary/fr", "?src=V2", "fr", "/offer2?src=V2"],
    ["v1ip-summary-2", "/v1ip-summary/ch-fr", "?src=v1ip", "ch-fr", "/offerip/ch-fr?src=v1ip"],
    ["summarypop-2", "/summarypop/fr", "?src=v1&utm_source=x", "fr", "/summarypop/fr?src=v1&utm_source=x&step=bundle"],
    ["summarypop-2", "/summarypop/fr", "?step=intro", "fr", "/summarypop/fr?step=bundle"],
    ["take-2", "/take/fr", "?a=1", "fr", "/offer2?a=1"],
    ["offer", "/offer", "", "de", "/offer2"],
    ["v1ip-summary", "/v1ip-summary", "", "fr", "/offer2"],
    ["summarypop", "/summarypop", "", "de", "/offer2"],
    ["not-found", "/x/y/z", "?q=1", "de", "/offer2?q=1"],
  ])("%s %s%s (market %s) → %s", (routeName, pathname, search, routeValue, expected) => {
    expect(orderTarget({ routeName, pathname, search, routeValue })).toBe(expected);
  });
});
