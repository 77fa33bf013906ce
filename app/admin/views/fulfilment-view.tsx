import { dispatchDeadline, isOverdue } from "../../parcels/dispatch-promise";
import type { Operator } from "../../operators/audit.server";
import type { FulfilmentRefusal, FulfilmentRow } from "../../parcels/fulfilment.server";
import type { ShipmentOutcome, ShipmentRefusal } from "../../parcels/shipments.server";
import { trackingCsvColumns, type ImportedLine } from "../../parcels/tracking-import.server";
import { formatTime, Frame, type Notice } from "./frame";

export const fulfilmentRefusals: Record<FulfilmentRefusal, string> = {
  not_found: "there is no such order",
  already_fulfilled: "it was marked fulfilled already",
  not_shippable: "it is refunded, withdrawn, cancelled or not paid",
  funnel_open: "the buyer may still add an upsell; it ships once the funnel has ended",
  erased: "the buyer's address was erased on request",
  disputed: "the customer disputes its payment, or won the dispute; it ships, if at all, once a dispute is closed in the store's favour",
  nothing_to_ship: "nothing physical is left to ship",
};

export const shipmentRefusals: Record<ShipmentRefusal, string> = {
  ...fulfilmentRefusals,
  unknown_order: "there is no order with this number",
  unknown_carrier: "the carrier is not one the store knows (content/commerce/carriers.json)",
  malformed_number: "the tracking number does not have that carrier's format",
  carrier_not_in_market: "that carrier does not deliver in the order's market",
  nothing_to_correct: "the parcel to correct is not one of the order's current parcels",
};

/** A refusal in words: the reason, or what would have been right where the store knows it. */
export function shipmentRefusalText(outcome: Extract<ShipmentOutcome, { kind: "refused" }>): string {
  return outcome.detail ?? shipmentRefusals[outcome.reason];
}

function outcomeText(outcome: ShipmentOutcome): string {
  if (outcome.kind === "recorded") return "recorded; the buyer gets the tracking link";
  if (outcome.kind === "unchanged") return "already recorded; nothing sent";
  return `refused: ${shipmentRefusalText(outcome)}`;
}

/** What the import did with each line of the file, refused lines with their reason. */
function ImportedLines({ lines }: { lines: ImportedLine[] }) {
  return (
    <section className="panel" aria-labelledby="imported">
      <h2 id="imported">The imported file, line by line</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Order</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {lines.map(({ line, outcome }) => (
            <tr key={line} data-testid="admin-imported-line">
              <td className="num">{line}</td>
              <td>{outcome.orderNumber ? <a href={`/admin/orders/${outcome.orderNumber}`}>{outcome.orderNumber}</a> : "—"}</td>
              <td>{outcomeText(outcome)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The lines waiting to ship, grouped by order, and the import of the warehouse's tracking numbers. */
export function FulfilmentView({
  operator,
  rows,
  now,
  notice,
  imported,
}: {
  operator: Operator;
  rows: FulfilmentRow[];
  /** The time the page is shown at, against which orders are past their promised dispatch. */
  now: Date;
  notice?: Notice | null;
  imported?: ImportedLine[];
}) {
  const orders = [...new Map(rows.map((row) => [row.orderId, rows.filter((candidate) => candidate.orderId === row.orderId)])).values()];
  const overdue = orders.filter((lines) => lines[0] && isOverdue(lines[0].paidAt, lines[0].market, now)).length;
  return (
    <Frame operator={operator} section="fulfilment" title="Fulfilment" notice={notice}>
      <div className="panel">
        <p>
          Paid physical lines whose funnel has ended and that are neither fulfilled nor refunded: {rows.length} line{rows.length === 1 ? "" : "s"} in {orders.length} order
          {orders.length === 1 ? "" : "s"}. Test orders are marked; they are not to be shipped.
        </p>
        {overdue > 0 ? (
          <p className="notice error" data-testid="admin-overdue-count">
            {overdue} order{overdue === 1 ? " is" : "s are"} past the promised dispatch time (paid before the market's cut-off on a working day, an order leaves that day; otherwise on the next working
            day, as the shop's countdown promises): ship{" "}
            {overdue === 1 ? "it" : "them"} first.
          </p>
        ) : null}
        <p>
          <a className="button secondary" href="/admin/fulfilment.csv" data-testid="admin-fulfilment-csv" download>
            Download the CSV for the warehouse
          </a>
        </p>
      </div>
      <form method="post" action="/admin/fulfilment" encType="multipart/form-data" className="panel">
        <h2>Import the warehouse's tracking numbers</h2>
        <p className="muted">
          A CSV whose first line names the columns {Object.values(trackingCsvColumns).map((name) => `“${name}”`).join(", ")}, one parcel a line (order numbers as in the
          CSV above; the carrier by name). Each good line marks its order fulfilled and e-mails the buyer the tracking link; a line already imported changes nothing and
          sends nothing. One order is marked fulfilled with its tracking number on the order's page.
        </p>
        <div className="actions">
          <label>
            Tracking CSV
            <input type="file" name="tracking" accept=".csv,text/csv" required data-testid="admin-tracking-csv" />
          </label>
          <button type="submit">Import</button>
        </div>
      </form>
      {imported ? <ImportedLines lines={imported} /> : null}
      {orders.length > 0 ? (
        <div className="panel">
          <table>
            <caption className="skip">Orders waiting to ship</caption>
            <thead>
              <tr>
                <th scope="col">Order</th>
                <th scope="col">Paid</th>
                <th scope="col">Ship to</th>
                <th scope="col">Lines</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((lines) => {
                const first = lines[0] as FulfilmentRow;
                return (
                  <tr key={first.orderId}>
                    <td>
                      <a href={`/admin/orders/${first.orderNumber}`}>{first.orderNumber}</a> {first.test ? <span className="tag-test">test</span> : null}
                    </td>
                    <td>
                      {formatTime(first.paidAt)}
                      {isOverdue(first.paidAt, first.market, now) ? (
                        <>
                          <br />
                          <strong className="tag-overdue" data-testid="admin-overdue">
                            overdue: due out {formatTime(dispatchDeadline(first.paidAt, first.market))}
                          </strong>
                        </>
                      ) : null}
                    </td>
                    <td>
                      {first.recipient}, {first.postalCode} {first.city}, {first.country}
                    </td>
                    <td>
                      {lines.map((line) => (
                        <div key={line.lineId}>
                          {line.packs} × {line.productName} <span className="muted">({line.productId})</span>
                        </div>
                      ))}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </Frame>
  );
}
