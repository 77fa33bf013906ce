import { describe, expect, it } from "vitest";
import { funnelStepOf, funnelSteps, isFunnelStep, upsellPath, upsellPositions } from "./funnel-steps";
import { routeEntries } from "./route-table";

/** Every named route and the step its views count for (null: not counted). */
const expected: Record<string, string | null> = {
  index: "landing",
  v1: "quiz",
  vsalt: "quiz",
  v1ip: "quiz",
  summary: "summary",
  summarypop: "summary",
  "v1ip-summary": "summary",
  take: "offer",
  take2: "offer",
  take3: "offer",
  offer: "offer",
  offer2: "offer",
  lionoffer: "offer",
  offerV7: "offer",
  fibergum: "offer",
  hypnotherapy: "offer",
  v8: "offer",
  checkout: "checkout",
  upsell: "upsell-1",
  upsellMind: "upsell-2",
  upsellfat: "upsell-1",
  "collagen-upsell": "upsell-1",
  "detolex-upsell": "upsell-1",
  thankyou: "thank-you",
  offerthanks: "thank-you",
  terms: null,
  refund: null,
  feedback: null,
  withdraw: null,
  review: null,
  "review-policy": null,
  "paypal-confirm": null,
  addapp: null,
};

describe("funnel steps", () => {
  it("lists the steps in the order a buyer meets them", () => {
    expect(funnelSteps).toEqual(["landing", "quiz", "summary", "offer", "checkout", "upsell-1", "upsell-2", "thank-you"]);
  });

  it.each(Object.entries(expected))("counts %s as %s", (name, step) => {
    expect(funnelStepOf(name)).toBe(step);
  });

  it("gives a route's twin the step of its plain route", () => {
    for (const entry of routeEntries) {
      const plain = entry.plainPath === "/" ? "index" : entry.plainPath.slice(1);
      expect(funnelStepOf(entry.name), entry.name).toBe(funnelStepOf(plain));
    }
  });

  it("counts nothing for pages outside the route table", () => {
    expect(funnelStepOf("not-found")).toBeNull();
    expect(funnelStepOf("funnel-view")).toBeNull();
  });

  it("names only known steps as steps", () => {
    expect(isFunnelStep("upsell-2")).toBe(true);
    expect(isFunnelStep("upsell-9")).toBe(false);
    expect(isFunnelStep("Landing")).toBe(false);
  });

  it("numbers upsells along their chain, and survives a loop in the content", () => {
    const chain = { a: { next: "b" }, b: { next: "c" }, c: { next: "thankyou" }, d: { next: "thankyou" } };
    expect(Object.fromEntries(upsellPositions(chain))).toEqual({ a: 1, b: 2, c: 3, d: 1 });
    expect(upsellPath(chain, "c")).toEqual(["a", "b", "c"]);
    const loop = upsellPositions({ a: { next: "b" }, b: { next: "a" } });
    expect([...loop.values()].every((position) => position <= 3)).toBe(true);
  });
});
