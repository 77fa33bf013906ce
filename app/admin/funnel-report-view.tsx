import type { FunnelStep } from "../funnel/funnel-steps";
import { formatMoney } from "../market/money";
import type { CurrencyCode } from "../market/markets";
import type { CurrencyFigures, FunnelFigures, FunnelReport, UpsellFigures } from "./funnel-report.server";

/**
 * The funnel report as HTML (decision 0017): the figures for the whole filter in one table, a bar
 * chart of visitors per step beside it, then the same figures per variant, per market and per
 * variant and market. Plain markup for the server to render; no script, no inline styles (the
 * back office's policy allows neither); class names start with `report-`.
 */

const numberFormat = new Intl.NumberFormat("en-GB");
const percentFormat = new Intl.NumberFormat("en-GB", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });

const count = (value: number) => numberFormat.format(value);
const money = (minor: number, currency: string) => formatMoney(minor, { languageTag: "en-GB", currency: currency as CurrencyCode });

/** A ratio as a percentage, or a clear "not applicable" where there was nothing to divide by. */
function Rate({ value }: { value: number | null }) {
  if (value === null) return <abbr title="not applicable: nothing to divide by">n/a</abbr>;
  return <>{percentFormat.format(value)}</>;
}

function Money({ minor, currency }: { minor: number | null; currency: string }) {
  if (minor === null) return <abbr title="not applicable: nothing to divide by">n/a</abbr>;
  return <>{money(minor, currency)}</>;
}

function stepLabel(step: FunnelStep | string): string {
  if (step.startsWith("upsell-")) return `Upsell ${step.slice("upsell-".length)}`;
  const labels: Record<string, string> = { landing: "Landing", quiz: "Quiz", summary: "Quiz result", offer: "Offer", checkout: "Checkout", "thank-you": "Thank-you page" };
  return labels[step] ?? step;
}

const variantLabel = (src: string) => (src === "" ? "(none)" : src);

function scopeText(report: FunnelReport): string {
  const range = report.from === report.to ? report.from : `${report.from} to ${report.to}`;
  const variant = report.src === null ? "all variants" : `variant ${variantLabel(report.src)}`;
  const market = report.market === null ? "all markets" : `market ${report.market}`;
  return `${range} (UTC), ${variant}, ${market}, test orders ${report.includeTest ? "included" : "excluded"}`;
}

function upsellLabel(upsell: UpsellFigures): string {
  return upsell.step ? `${stepLabel(upsell.step)}: ${upsell.page}` : upsell.page;
}

function SectionHead({ title, columns }: { title: string; columns: [string, string] }) {
  return (
    <tr className="report-section-head">
      <th scope="col">{title}</th>
      <th scope="col">{columns[0]}</th>
      <th scope="col">{columns[1]}</th>
    </tr>
  );
}

/** The one table of the whole filter: steps as rows, then orders, upsells and money per currency. */
function SummaryTable({ report }: { report: FunnelReport }) {
  const { total } = report;
  const entry = total.entryStep ? stepLabel(total.entryStep).toLowerCase() : null;
  return (
    <table data-testid="funnel-report" className="report-table">
      <caption>Funnel, {scopeText(report)}</caption>
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">Visitors (page views)</th>
          <th scope="col">Share of the visitors (of the busiest step)</th>
        </tr>
      </thead>
      <tbody className="report-steps">
        {total.steps.map((step) => (
          <tr key={step.step}>
            <th scope="row">{stepLabel(step.step)}</th>
            <td className="report-number">{count(step.visitors)}</td>
            <td className="report-number">
              <Rate value={step.shareOfVisitors} />
            </td>
          </tr>
        ))}
      </tbody>
      <tbody className="report-orders">
        <SectionHead title="Orders" columns={["Count", "Order conversion"]} />
        <tr>
          <th scope="row">Checkouts started</th>
          <td className="report-number">{count(total.checkoutsStarted)}</td>
          <td className="report-number" />
        </tr>
        <tr>
          <th scope="row">Orders paid</th>
          <td className="report-number">{count(total.ordersPaid)}</td>
          <td className="report-number">
            <Rate value={total.orderConversion} />
            {entry ? <span className="report-note"> of {entry} visitors</span> : null}
          </td>
        </tr>
        <tr data-testid="bump-take-rate">
          <th scope="row">With the checkout&apos;s add-on (order bump)</th>
          <td className="report-number">
            {count(total.bumpTaken)} of {count(total.ordersPaid)}
          </td>
          <td className="report-number">
            <Rate value={total.bumpTakeRate} />
            <span className="report-note"> bump take rate</span>
          </td>
        </tr>
      </tbody>
      <tbody className="report-upsells">
        <SectionHead title="Upsells" columns={["Taken of shown", "Take rate"]} />
        {total.upsells.length === 0 ? (
          <tr>
            <th scope="row">No upsell shown</th>
            <td className="report-number">{count(0)}</td>
            <td className="report-number">
              <Rate value={null} />
            </td>
          </tr>
        ) : (
          total.upsells.map((upsell) => (
            <tr key={upsell.page}>
              <th scope="row">{upsellLabel(upsell)}</th>
              <td className="report-number">
                {count(upsell.taken)} of {count(upsell.shown)}
              </td>
              <td className="report-number">
                <Rate value={upsell.takeRate} />
              </td>
            </tr>
          ))
        )}
      </tbody>
      <tbody className="report-money">
        <SectionHead title="Revenue by currency" columns={["Average order value", "Revenue per visitor"]} />
        {total.currencies.length === 0 ? (
          <tr>
            <th scope="row">No revenue</th>
            <td className="report-number">
              <Rate value={null} />
            </td>
            <td className="report-number">
              <Rate value={null} />
            </td>
          </tr>
        ) : (
          total.currencies.map((figures) => (
            <tr key={figures.currency}>
              <th scope="row">
                {figures.currency}{" "}
                <span className="report-note">
                  ({money(figures.revenueMinor, figures.currency)} from {count(figures.ordersPaid)} paid {figures.ordersPaid === 1 ? "order" : "orders"})
                </span>
              </th>
              <td className="report-number">
                <Money minor={figures.averageOrderValueMinor} currency={figures.currency} />
              </td>
              <td className="report-number">
                <Money minor={figures.revenuePerVisitorMinor} currency={figures.currency} />
              </td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/** Horizontal bars, each named and numbered in text, so nothing depends on colour or on seeing the bars. */
function VisitorsChart({ figures }: { figures: FunnelFigures }) {
  const rowHeight = 28;
  const labelWidth = 150;
  const barSpace = 250;
  const width = labelWidth + barSpace + 80;
  const height = figures.steps.length * rowHeight + 8;
  const most = Math.max(0, ...figures.steps.map((step) => step.visitors));
  const description = figures.steps.map((step) => `${stepLabel(step.step)}: ${count(step.visitors)}`).join("; ");
  return (
    <figure className="report-chart">
      <svg role="img" aria-labelledby="report-chart-title" aria-describedby="report-chart-desc" viewBox={`0 0 ${width} ${height}`} width={width} height={height}>
        <title id="report-chart-title">Visitors (page views) per funnel step</title>
        <desc id="report-chart-desc">{description}</desc>
        {figures.steps.map((step, index) => {
          const y = index * rowHeight + 4;
          const length = most > 0 ? Math.round((step.visitors / most) * barSpace) : 0;
          return (
            <g key={step.step}>
              <text className="report-chart-label" x={labelWidth - 8} y={y + rowHeight / 2 + 4} textAnchor="end">
                {stepLabel(step.step)}
              </text>
              <rect className="report-chart-bar" x={labelWidth} y={y + 4} width={length} height={rowHeight - 10} fill="currentColor" />
              <text className="report-chart-value" x={labelWidth + length + 6} y={y + rowHeight / 2 + 4}>
                {count(step.visitors)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>Visitors (page views) per step</figcaption>
    </figure>
  );
}

/** Amounts of several currencies side by side, never added together. */
function PerCurrency({ currencies, pick }: { currencies: CurrencyFigures[]; pick: (figures: CurrencyFigures) => number | null }) {
  if (currencies.length === 0) return <Rate value={null} />;
  return (
    <>
      {currencies.map((figures, index) => (
        <span key={figures.currency} className="report-currency">
          {index > 0 ? <br /> : null}
          <Money minor={pick(figures)} currency={figures.currency} />
        </span>
      ))}
    </>
  );
}

interface BreakdownRow extends FunnelFigures {
  src?: string;
  market?: string;
}

function BreakdownTable({ title, rows, columns }: { title: string; rows: BreakdownRow[]; columns: ("src" | "market")[] }) {
  return (
    <table className="report-table report-breakdown">
      <caption>{title}</caption>
      <thead>
        <tr>
          {columns.includes("src") ? <th scope="col">Variant</th> : null}
          {columns.includes("market") ? <th scope="col">Market</th> : null}
          <th scope="col">Entry step</th>
          <th scope="col">Entry visitors</th>
          <th scope="col">Checkouts started</th>
          <th scope="col">Orders paid</th>
          <th scope="col">Order conversion</th>
          <th scope="col">Add-on take rate</th>
          <th scope="col">Average order value</th>
          <th scope="col">Revenue per visitor</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={columns.length + 8} className="report-empty">
              Nothing was counted for this filter.
            </td>
          </tr>
        ) : (
          rows.map((row) => (
            <tr key={`${row.src ?? ""}|${row.market ?? ""}`}>
              {columns.includes("src") ? <th scope="row">{variantLabel(row.src ?? "")}</th> : null}
              {columns.includes("market") ? columns.includes("src") ? <td>{row.market}</td> : <th scope="row">{row.market}</th> : null}
              <td>{row.entryStep ? stepLabel(row.entryStep) : <Rate value={null} />}</td>
              <td className="report-number">{count(row.entryVisitors)}</td>
              <td className="report-number">{count(row.checkoutsStarted)}</td>
              <td className="report-number">{count(row.ordersPaid)}</td>
              <td className="report-number">
                <Rate value={row.orderConversion} />
              </td>
              <td className="report-number" data-testid="row-bump-take-rate">
                <Rate value={row.bumpTakeRate} />
              </td>
              <td className="report-number">
                <PerCurrency currencies={row.currencies} pick={(figures) => figures.averageOrderValueMinor} />
              </td>
              <td className="report-number">
                <PerCurrency currencies={row.currencies} pick={(figures) => figures.revenuePerVisitorMinor} />
              </td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/** The whole report; render it inside the back office's frame. */
export function FunnelReportView({ report }: { report: FunnelReport }) {
  return (
    <div className="report">
      <div className="report-overview">
        <SummaryTable report={report} />
        <VisitorsChart figures={report.total} />
      </div>
      <p className="report-note">
        Visitors are page views, not people: a reload or a second visit counts again. Order conversion and revenue per visitor are per view of the entry step, the
        busiest step before the checkout. Take rates count each paid order once per upsell. Revenue is the paid orders&apos; totals with their upsells, refunds not
        deducted, kept apart per currency.
      </p>
      <BreakdownTable title="By variant" rows={report.bySrc} columns={["src"]} />
      <BreakdownTable title="By market" rows={report.byMarket} columns={["market"]} />
      <BreakdownTable title="By variant and market" rows={report.rows} columns={["src", "market"]} />
    </div>
  );
}
