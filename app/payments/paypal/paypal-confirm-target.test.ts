import { describe, expect, it } from "vitest";
import { confirmTarget } from "./paypal-confirm-target";

describe("confirmTarget", () => {
  it.each([
    ["upsell", "fr", "/upsell"],
    ["upsellMind-2", "de", "/upsellMind/de"],
    ["thankyou-2", "gb", "/thankyou/gb"],
    ["offerthanks", "fr", "/offerthanks"],
    ["nonsense", "fr", "/thankyou"],
    ["paypal-confirm-2", "fr", "/thankyou"],
    [undefined, "fr", "/thankyou"],
  ])("from %s (market %s) leads to %s", (from, routeValue, target) => {
    expect(confirmTarget(from, routeValue)).toBe(target);
  });
});
