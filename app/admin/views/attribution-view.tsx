import { formatMoney } from "../../market/money";
import type { CurrencyCode } from "../../market/markets";
import type { Operator } from "../../operators/audit.server";
import { maxViewGroups, type AttributionFigures, type AttributionReport, type AttributionRow } from "../attribution-report.server";
import { Frame } from "./frame";
import type { ReportFilter } from "./report-view";

/**
 * The attribution report as HTML: one row per source, medium and campaign, busiest first; a row's
 * campaign opens it to its contents below it (a link, as the back office runs no script). Money
 * per currency, one line each, never added across currencies.
 */

const numberFormat = new Intl.NumberFormat("en-GB");
const percentFormat = new Intl.NumberFormat("en-GB", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
const money = (minor: number, currency: string) => formatMoney(minor, { languageTag: "en-GB", currency: currency as CurrencyCode });
const notApplicable = <abbr title="not applicable: nothing to divide by">n/a</abbr>;

function Rate({ value }: { value: number | null }) {
  return value === null ? notApplicable : <>{percentFormat.format(value)}</>;
}

/** One line per currency, or a dash when nothing was taken. */
function PerCurrency({ figures, amount }: { figures: AttributionFigures; amount: (taking: AttributionFigures["currencies"][number]) => number | null }) {
  if (figures.currencies.length === 0) return <>—</>;
  return (
    <>
      {figures.currencies.map((taking) => {
        const minor = amount(taking);
        return (
          <span key={taking.currency} className="attribution-currency">
            {minor === null ? notApplicable : money(minor, taking.currency)}
          </span>
        );
      })}
    </>
  );
}

/** The key a row is opened by in the page's address. */
export const rowKey = (row: Pick<AttributionRow, "source" | "medium" | "campaign">) => JSON.stringify([row.source, row.medium, row.campaign]);

function FigureCells({ figures }: { figures: AttributionFigures }) {
  return (
    <>
      <td className="report-number">{numberFormat.format(figures.visits)}</td>
      <td className="report-number">{numberFormat.format(figures.checkouts)}</td>
      <td className="report-number" data-testid="attribution-orders">
        {numberFormat.format(figures.orders)}
      </td>
      <td className="report-number">
        <Rate value={figures.conversion} />
      </td>
      <td className="report-number" data-testid="attribution-revenue">
        <PerCurrency figures={figures} amount={(taking) => taking.revenueNetMinor} />
      </td>
      <td className="report-number">
        <PerCurrency figures={figures} amount={(taking) => taking.averageOrderValueMinor} />
      </td>
      <td className="report-number">
        <Rate value={figures.upsellTakeRate} />
      </td>
      <td className="report-number">
        <Rate value={figures.bumpTakeRate} />
      </td>
      <td className="report-number">
        <Rate value={figures.refundRate} />
      </td>
    </>
  );
}

const shown = (value: string) => (value === "" ? <span className="muted">(none)</span> : value);

export function AttributionView({ operator, filter, report, open }: { operator: Operator; filter: ReportFilter; report: AttributionReport; open: string | null }) {
  const query = (extra: Record<string, string>) => {
    const params = new URLSearchParams({ from: filter.from, to: filter.to, test: "0", ...extra });
    if (filter.includeTest) params.append("test", "1");
    return params.toString();
  };
  return (
    <Frame operator={operator} section="attribution" title="Attribution">
      <form method="get" action="/admin/attribution" className="panel filters">
        <label>
          From
          <input type="date" name="from" defaultValue={filter.from} required />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={filter.to} required />
        </label>
        <input type="hidden" name="test" value="0" />
        <label className="inline">
          <input type="checkbox" name="test" value="1" defaultChecked={filter.includeTest} /> Include test orders
        </label>
        <button type="submit">Show</button>
        <a href={`/admin/attribution.csv?${query({})}`} data-testid="attribution-csv">
          Download CSV
        </a>
      </form>
      <div className="report">
        <table className="report-table" data-testid="attribution-report">
          <caption>
            Where the orders came from{" "}
            <span className="report-note">
              {report.from === report.to ? report.from : `${report.from} to ${report.to}`} (UTC), test orders {report.includeTest ? "included" : "excluded"}. Revenue is net of refunds, per currency.
              {report.viewsCut ? ` Only the ${maxViewGroups.toLocaleString("en")} busiest groups of page views are read; the least visited touches show no visits.` : null}
            </span>
          </caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Medium</th>
              <th scope="col">Campaign</th>
              <th scope="col" className="report-number">Visits</th>
              <th scope="col" className="report-number">Checkouts</th>
              <th scope="col" className="report-number">Orders</th>
              <th scope="col" className="report-number">Conversion</th>
              <th scope="col" className="report-number">Revenue</th>
              <th scope="col" className="report-number">Average order</th>
              <th scope="col" className="report-number">Upsell taken</th>
              <th scope="col" className="report-number">Bump taken</th>
              <th scope="col" className="report-number">Refunded</th>
            </tr>
          </thead>
          <tbody>
            {report.rows.length === 0 ? (
              <tr>
                <td colSpan={12} className="report-empty">
                  No visits or orders in this range.
                </td>
              </tr>
            ) : null}
            {report.rows.flatMap((row) => {
              const key = rowKey(row);
              const isOpen = key === open;
              return [
                <tr key={key} data-testid="attribution-row" data-source={row.source} data-medium={row.medium} data-campaign={row.campaign}>
                  <th scope="row">{row.source}</th>
                  <td>{row.medium}</td>
                  <td>
                    <a href={`/admin/attribution?${query(isOpen ? {} : { open: key })}`} aria-expanded={isOpen}>
                      {shown(row.campaign)}
                    </a>
                  </td>
                  <FigureCells figures={row} />
                </tr>,
                ...(isOpen
                  ? row.contents.map((content) => (
                      <tr key={`${key}:${content.content}`} className="attribution-content" data-testid="attribution-content-row" data-content={content.content}>
                        <td colSpan={3}>Content: {shown(content.content)}</td>
                        <FigureCells figures={content} />
                      </tr>
                    ))
                  : []),
              ];
            })}
          </tbody>
        </table>
      </div>
      <p className="muted">
        Visits are the page views of each row&apos;s busiest entry page (landing, quiz, result or offer). A visitor&apos;s touch is the campaign or ad click in the address they arrived by, else the site that linked to them, else
        direct; with analytics consent, a visitor who returns directly keeps their last touch for 30 days.
      </p>
    </Frame>
  );
}
