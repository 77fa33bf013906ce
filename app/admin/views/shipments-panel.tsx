import { carrierById, carriersFor, trackingLink } from "../../parcels/carriers.server";
import type { OrderDetail } from "../order-queries.server";
import { formatTime } from "./frame";

/**
 * An order's parcels with their tracking links, and the form that adds one: the first parcel marks
 * the order fulfilled, each parcel e-mails the buyer its link, and a correction replaces a number.
 */
export function ShipmentsPanel({ detail, canRecord }: { detail: OrderDetail; canRecord: boolean }) {
  const { order, shipments } = detail;
  const current = shipments.filter((shipment) => shipment.supersededBy === null);
  const carrierName = (id: string) => carrierById(id)?.name ?? id;
  return (
    <section className="panel" aria-labelledby="shipments">
      <h2 id="shipments">Parcels</h2>
      {shipments.length === 0 ? (
        <p className="muted">No parcel recorded yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Recorded</th>
              <th scope="col">Carrier</th>
              <th scope="col">Tracking number</th>
              <th scope="col">From</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {shipments.map((shipment) => {
              const carrier = carrierById(shipment.carrier);
              return (
                <tr key={shipment.id} data-testid="admin-shipment">
                  <td>{formatTime(shipment.createdAt)}</td>
                  <td>{carrierName(shipment.carrier)}</td>
                  <td>
                    {carrier ? (
                      <a href={trackingLink(carrier, shipment.trackingNumber)} rel="noreferrer" target="_blank" data-testid="admin-shipment-link">
                        {shipment.trackingNumber}
                      </a>
                    ) : (
                      shipment.trackingNumber
                    )}
                  </td>
                  <td>{shipment.source === "csv-import" ? "warehouse CSV" : "this page"}</td>
                  <td>{shipment.supersededBy === null ? "current" : `corrected on ${formatTime(shipment.supersededAt)}`}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {canRecord ? (
        <form method="post" action={`/admin/orders/${order.number}/shipments`}>
          <fieldset>
            <legend>{order.fulfilledAt ? "Add a parcel or correct a number" : "Mark fulfilled with the parcel's tracking number"}</legend>
            <p className="muted">The buyer gets an e-mail with the carrier, the number and the tracking link; a correction sends a correction, not a second shipping e-mail.</p>
            <div className="actions">
              <label>
                Carrier
                <select name="carrier" required>
                  {carriersFor(order.market).map((carrier) => (
                    <option key={carrier.id} value={carrier.id}>
                      {carrier.name}
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Tracking number
                <input type="text" name="trackingNumber" required maxLength={60} size={26} autoComplete="off" />
              </label>
              {current.length > 0 ? (
                <label>
                  This parcel
                  <select name="corrects" defaultValue="">
                    <option value="">is another parcel</option>
                    {current.map((shipment) => (
                      <option key={shipment.id} value={shipment.id}>
                        corrects {carrierName(shipment.carrier)} {shipment.trackingNumber}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              <button type="submit" data-testid="admin-record-shipment">
                {order.fulfilledAt ? "Record and e-mail the buyer" : "Mark fulfilled and e-mail the tracking link"}
              </button>
            </div>
          </fieldset>
        </form>
      ) : null}
    </section>
  );
}
