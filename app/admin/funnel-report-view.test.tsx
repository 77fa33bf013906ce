// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { funnelSteps } from "../funnel/funnel-steps";
import type { FunnelFigures, FunnelReport } from "./funnel-report.server";
import { FunnelReportView } from "./funnel-report-view";

const visitors: Record<string, number> = { landing: 1200, quiz: 0, summary: 0, offer: 600, checkout: 90, "upsell-1": 40, "upsell-2": 20, "thank-you": 45 };

const figures: FunnelFigures = {
  steps: funnelSteps.map((step) => ({ step, visitors: visitors[step] ?? 0, shareOfVisitors: (visitors[step] ?? 0) / 1200 })),
  entryStep: "landing",
  entryVisitors: 1200,
  checkoutsStarted: 60,
  ordersPaid: 42,
  orderConversion: 0.035,
  upsells: [{ page: "upsell", step: "upsell-1", shown: 40, taken: 10, takeRate: 0.25 }],
  bumpTaken: 21,
  bumpTakeRate: 0.5,
  currencies: [
    { currency: "EUR", ordersPaid: 40, revenueMinor: 266_000, averageOrderValueMinor: 6650, entryStep: "landing", visitors: 1100, revenuePerVisitorMinor: 242 },
    { currency: "GBP", ordersPaid: 2, revenueMinor: 7970, averageOrderValueMinor: 3985, entryStep: "landing", visitors: 100, revenuePerVisitorMinor: 80 },
  ],
};

const report: FunnelReport = {
  from: "2026-11-01",
  to: "2026-11-30",
  src: null,
  market: null,
  includeTest: false,
  total: figures,
  bySrc: [{ src: "", ...figures }],
  byMarket: [{ market: "DE", ...figures }],
  rows: [{ src: "", market: "DE", ...figures }],
};

function rendered(of: FunnelReport) {
  const html = renderToString(<FunnelReportView report={of} />);
  return { html, document: new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, "text/html") };
}

describe("FunnelReportView", () => {
  it("shows the steps as rows with visitors and each step's share of the same visitors", () => {
    const { document } = rendered(report);
    const table = document.querySelector('table[data-testid="funnel-report"]');
    const rows = [...(table?.querySelectorAll("tbody.report-steps tr") ?? [])].map((row) => [...row.children].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ["Landing", "1,200", "100.0%"],
      ["Quiz", "0", "0.0%"],
      ["Quiz result", "0", "0.0%"],
      ["Offer", "600", "50.0%"],
      ["Checkout", "90", "7.5%"],
      ["Upsell 1", "40", "3.3%"],
      ["Upsell 2", "20", "1.7%"],
      ["Thank-you page", "45", "3.8%"],
    ]);
    expect(table?.querySelector("caption")?.textContent).toBe("Funnel, 2026-11-01 to 2026-11-30 (UTC), all variants, all markets, test orders excluded");
  });

  it("shows orders, upsell take rates and money per currency, never added across currencies", () => {
    const { document } = rendered(report);
    const text = (selector: string) => [...document.querySelectorAll(selector)].map((row) => [...row.children].map((cell) => cell.textContent).join(" | "));
    expect(text("tbody.report-orders tr")).toEqual(["Orders | Count | Order conversion", "Checkouts started | 60 | ", "Orders paid | 42 | 3.5% of landing visitors", "With the checkout's add-on (order bump) | 21 of 42 | 50.0% bump take rate"]);
    // Per split-test variant too: the breakdown's add-on column.
    expect([...document.querySelectorAll('[data-testid="row-bump-take-rate"]')].map((cell) => cell.textContent)).toEqual(["50.0%", "50.0%", "50.0%"]);
    expect(text("tbody.report-upsells tr")).toEqual(["Upsells | Taken of shown | Take rate", "Upsell 1: upsell | 10 of 40 | 25.0%"]);
    expect(text("tbody.report-money tr")).toEqual([
      "Revenue by currency | Average order value | Revenue per visitor",
      "EUR (€2,660.00 from 40 paid orders) | €66.50 | €2.42",
      "GBP (£79.70 from 2 paid orders) | £39.85 | £0.80",
    ]);
  });

  it("draws an accessible bar chart of visitors per step with text labels", () => {
    const { document } = rendered(report);
    const svg = document.querySelector("svg");
    expect(svg?.getAttribute("role")).toBe("img");
    const title = document.getElementById(svg?.getAttribute("aria-labelledby") ?? "");
    expect(title?.textContent).toBe("Visitors (page views) per funnel step");
    expect(document.getElementById(svg?.getAttribute("aria-describedby") ?? "")?.textContent).toContain("Landing: 1,200; Quiz: 0;");
    expect([...document.querySelectorAll(".report-chart-label")].map((label) => label.textContent)).toEqual(["Landing", "Quiz", "Quiz result", "Offer", "Checkout", "Upsell 1", "Upsell 2", "Thank-you page"]);
    const widths = [...document.querySelectorAll(".report-chart-bar")].map((bar) => Number(bar.getAttribute("width")));
    expect(widths[0]).toBe(250);
    expect(widths[3]).toBe(125);
    expect(widths[1]).toBe(0);
  });

  it("renders an empty range without NaN, with no inline style or script", () => {
    const empty: FunnelFigures = { ...figures, steps: figures.steps.map((step) => ({ ...step, visitors: 0, shareOfVisitors: null })), entryStep: null, entryVisitors: 0, checkoutsStarted: 0, ordersPaid: 0, orderConversion: null, upsells: [], currencies: [] };
    const { html, document } = rendered({ ...report, src: "", market: "CH-FR", includeTest: true, total: empty, bySrc: [], byMarket: [], rows: [] });
    expect(html).not.toMatch(/NaN|Infinity|style=|<script/);
    expect(document.querySelector("caption")?.textContent).toContain("variant (none), market CH-FR, test orders included");
    expect(document.querySelectorAll(".report-empty")).toHaveLength(3);
  });
});
