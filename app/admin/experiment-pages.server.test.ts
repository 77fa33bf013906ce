import { describe, expect, it } from "vitest";
import { armOffers } from "./experiment-pages.server";

const today = new Date("2026-11-21T12:00:00Z");
const arms = (...paths: string[]) => paths.map((path) => ({ path, weight: Math.floor(100 / paths.length) }));

describe("what each arm sells, per market", () => {
  it("gives an offer page its own bundles in the market's currency", () => {
    const [de] = armOffers({ market: "DE", arms: arms("/offer", "/offercoll") }, today);
    expect(de?.arms.map((arm) => arm.sells)).toEqual(["offer", "offer"]);
    expect(de?.arms[0]?.lines.length).toBeGreaterThan(0);
    expect(de?.arms[0]?.lines[0]?.currency).toBe("EUR");
    expect(de?.arms[1]?.lines[0]?.productName).not.toBe(de?.arms[0]?.lines[0]?.productName);
  });

  it("says a quiz's offer follows its answers, and lists no default offer for a page that sells none", () => {
    const [de] = armOffers({ market: "DE", arms: arms("/offer", "/v1", "/summary", "/upsell") }, today);
    expect(de?.arms.map((arm) => ({ sells: arm.sells, lines: arm.lines.length }))).toEqual([
      { sells: "offer", lines: de?.arms[0]?.lines.length },
      { sells: "quiz", lines: 0 },
      { sells: "quiz", lines: 0 },
      { sells: "nothing", lines: 0 },
    ]);
  });
});
