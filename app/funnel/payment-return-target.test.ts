import { describe, expect, it } from "vitest";
import { returnTarget } from "./payment-return-target";

describe("returnTarget", () => {
  it.each([
    ["upsell", "fr", "/upsell"],
    ["upsellMind-2", "de", "/upsellMind/de"],
    ["thankyou-2", "gb", "/thankyou/gb"],
    ["offerthanks", "fr", "/offerthanks"],
    ["nonsense", "fr", "/thankyou"],
    ["paypal-confirm-2", "fr", "/thankyou"],
    [undefined, "fr", "/thankyou"],
  ])("from %s (market %s) leads to %s", (from, routeValue, target) => {
    expect(returnTarget(from, routeValue)).toBe(target);
  });
});
