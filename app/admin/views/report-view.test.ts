import { describe, expect, it } from "vitest";
import { readReportFilter, type ReportFilter } from "./report-view";

const today = new Date("2026-11-23T15:00:00Z");
const defaults: ReportFilter = { from: "2026-10-25", to: "2026-11-23", src: null, market: "", includeTest: false, testByDefault: false, arm: null };

describe("the funnel report's filter", () => {
  it.each<[string, Partial<ReportFilter>]>([
    ["", {}],
    ["from=2026-11-01&to=2026-11-10&src=v2&market=CH-FR&test=1", { from: "2026-11-01", to: "2026-11-10", src: "v2", market: "CH-FR", includeTest: true }],
    ["from=2026-11-10&to=2026-11-01", { from: "2026-11-01", to: "2026-11-10" }],
    ["src=", { src: "" }],
    ["src=*", {}],
    ["src=<script>&market=XX&test=yes&from=2026-02-30x", {}],
    ["arm=k3j9x2ab.1", { arm: "k3j9x2ab.1" }],
    ["arm=k3j9x2ab.7", {}],
  ])("reads ?%s", (query, expected) => {
    expect(readReportFilter(new URLSearchParams(query), today, "live")).toEqual({ ...defaults, ...expected });
  });

  it.each<[string, "test" | "live", Partial<ReportFilter>]>([
    ["", "test", { includeTest: true, testByDefault: true }],
    ["", "live", { includeTest: false, testByDefault: false }],
    // The form sends test=0 always and test=1 beside it when the box is ticked.
    ["test=0", "test", { includeTest: false }],
    ["test=0&test=1", "test", { includeTest: true }],
    ["test=0&test=1", "live", { includeTest: true }],
  ])("reads ?%s in a store in %s mode: test orders count by default only while the store is in test mode, as on the split-test page", (query, mode, expected) => {
    expect(readReportFilter(new URLSearchParams(query), today, mode)).toEqual({ ...defaults, ...expected });
  });
});
