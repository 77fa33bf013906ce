import { describe, expect, it } from "vitest";
import { routeEntries } from "../funnel/route-table";
import { footerBehaviour } from "./footer-rules";

describe("footerBehaviour", () => {
  it.each([
    ["index", "help-centre", false, false],
    ["index-2", "help-centre", false, false],
    ["take", "help-centre", true, false],
    ["take-2", "help-centre", true, false],
    ["take2", "modal", true, true],
    ["take3-2", "modal", true, true],
    ["buy", "modal", true, true],
    ["buy-2", "modal", true, true],
    ["offer", "modal", true, true],
    ["offer2-2", "modal", true, true],
    ["offerV4-2", "modal", true, true],
    ["offerthanks", "modal", true, true],
    ["get2", "modal", false, true],
    ["1get-2", "modal", false, true],
    ["6offer-2", "modal", false, true],
    ["lionoffer", "modal", false, true],
    ["summary-2", "modal", false, true],
    ["thankyou", "modal", false, true],
    ["upsell-2", "modal", false, true],
    ["not-found", "modal", false, true],
  ] as const)("%s: contact %s, terms in a new tab %s, contact details %s", (route, contact, newTab, details) => {
    expect(footerBehaviour(route)).toEqual({ contact, termsInNewTab: newTab, showContactDetails: details });
  });

  it("has a rule for every route of the table", () => {
    for (const entry of routeEntries) expect(footerBehaviour(entry.name).contact).toMatch(/modal|help-centre/);
  });
});
