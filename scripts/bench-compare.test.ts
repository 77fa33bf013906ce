import { describe, expect, it } from "vitest";
import { compareWithPrevious, keyFigures } from "./bench-compare";

const older = {
  pages: [{ type: "offer", firstLoadJsKB: 115.2, performance: 95, tbtMs: 260 }],
  loadTest: { prerendered: { requestsPerSecond: 1955 }, perRequest: { requestsPerSecond: 123 }, orders: { ordersPerSecond: 41.6 }, serverPeakMemoryMB: 893 },
};
const newer = {
  pages: [{ type: "offer", firstLoadJsKB: 110, documentBrotliKB: 9.1, performance: 99, tbtMs: 90 }],
  loadTest: {
    load: [
      { target: "prerendered, browser", connections: 20, requestsPerSecond: 3910, p99Ms: 20 },
      { target: "geo page (FR), browser", connections: 50, requestsPerSecond: 1500, p99Ms: 60 },
    ],
    orders: { ordersPerSecond: 41.6 },
    serverPeakMemoryMB: "not a number",
    backOfficeOnPostgres: { orders: 10000, pages: [{ page: "/admin/orders", p50Ms: 9.6, p99Ms: 63.4 }] },
  },
  checkoutWithCode: {
    times: [
      { request: "order paid (POST)", code: "without", p50Ms: 30.2, p99Ms: 80 },
      { request: "order paid (POST)", code: "with", p50Ms: 34.5, p99Ms: 90 },
    ],
    load: [{ request: "checkout quote (POST apply-code)", code: "with", connections: 10, requestsPerSecond: 210 }],
  },
};

describe("benchmark comparison", () => {
  it("reads the figures of either layout, skipping what is not a number", () => {
    const figures = keyFigures(newer);
    expect(figures.get("JS KB gz: offer")).toBe(110);
    expect(figures.get("req/s: geo page (FR), browser @50")).toBe(1500);
    expect(figures.get("back office p99 ms: /admin/orders")).toBe(63.4);
    expect(figures.has("server peak memory MB")).toBe(false);
    expect(figures.get("checkout p50 ms: order paid (POST), without code")).toBe(30.2);
    expect(figures.get("checkout p50 ms: order paid (POST), with code")).toBe(34.5);
    expect(figures.get("req/s: checkout quote (POST apply-code), with code @10")).toBe(210);
    expect(keyFigures(older).get("req/s: geo page (FR), browser @20")).toBe(123);
    expect(keyFigures("nonsense").size).toBe(0);
  });

  it("sets the figures both runs have side by side with their change", () => {
    expect(compareWithPrevious(older, newer)).toEqual([
      { figure: "JS KB gz: offer", before: 115.2, after: 110, change: "-5 %" },
      { figure: "performance: offer", before: 95, after: 99, change: "+4 %" },
      { figure: "TBT ms: offer", before: 260, after: 90, change: "-65 %" },
      { figure: "req/s: prerendered, browser @20", before: 1955, after: 3910, change: "+100 %" },
      { figure: "orders/s: PGlite", before: 41.6, after: 41.6, change: "+0 %" },
    ]);
  });
});
