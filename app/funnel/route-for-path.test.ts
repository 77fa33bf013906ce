import { describe, expect, it } from "vitest";
import { routeEntryForPath } from "./route-for-path";

describe("routeEntryForPath", () => {
  it.each([
    ["/", "index"],
    ["/fr", "index-2"],
    ["/offer", "offer"],
    ["/offer/fr", "offer-2"],
    ["/OFFER/CH-FR", "offer-2"],
    ["/get/de", "get2"],
    ["/paypal-confirm/upsell", "paypal-confirm-2"],
    ["/offerthanks", "offerthanks"],
    ["/offerthanks/fr", undefined],
    ["/a/b/c", undefined],
  ])("%s is %s", (path, name) => {
    expect(routeEntryForPath(path)?.name).toBe(name);
  });
});
