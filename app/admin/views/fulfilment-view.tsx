import type { Operator } from "../audit.server";
import type { FulfilmentRefusal, FulfilmentRow } from "../fulfilment.server";
import { formatTime, Frame, type Notice } from "./frame";

export const fulfilmentRefusals: Record<FulfilmentRefusal, string> = {
  not_found: "there is no such order",
  already_fulfilled: "it was marked fulfilled already",
  not_shippable: "it is refunded, withdrawn, cancelled or not paid",
  funnel_open: "the buyer may still add an upsell; it ships once the funnel has ended",
  erased: "the buyer's address was erased on request",
  nothing_to_ship: "nothing physical is left to ship",
};

/** The lines waiting to ship, grouped by order, each order ticked for marking. */
export function FulfilmentView({ operator, rows, notice }: { operator: Operator; rows: FulfilmentRow[]; notice?: Notice | null }) {
  const orders = [...new Map(rows.map((row) => [row.orderId, rows.filter((candidate) => candidate.orderId === row.orderId)])).values()];
  return (
    <Frame operator={operator} section="fulfilment" title="Fulfilment" notice={notice}>
      <div className="panel">
        <p>
          Paid physical lines whose funnel has ended and that are neither fulfilled nor refunded: {rows.length} line{rows.length === 1 ? "" : "s"} in {orders.length} order
          {orders.length === 1 ? "" : "s"}. Test orders are marked; they are not to be shipped.
        </p>
        <p>
          <a className="button secondary" href="/admin/fulfilment.csv" data-testid="admin-fulfilment-csv" download>
            Download the CSV for the warehouse
          </a>
        </p>
      </div>
      {orders.length > 0 ? (
        <form method="post" action="/admin/fulfilment" className="panel">
          <table>
            <caption className="skip">Orders waiting to ship</caption>
            <thead>
              <tr>
                <th scope="col">Mark</th>
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
                      <input type="checkbox" name="order" value={first.orderId} defaultChecked aria-label={`Mark ${first.orderNumber} fulfilled`} />
                    </td>
                    <td>
                      <a href={`/admin/orders/${first.orderNumber}`}>{first.orderNumber}</a> {first.test ? <span className="tag-test">test</span> : null}
                    </td>
                    <td>{formatTime(first.paidAt)}</td>
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
          <p className="actions">
            <button type="submit">Mark ticked orders fulfilled</button>
          </p>
        </form>
      ) : null}
    </Frame>
  );
}
