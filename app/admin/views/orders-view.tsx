import { orderStatuses } from "../../orders/schema";
import type { Operator } from "../../operators/audit.server";
import type { OrderFilter, OrderListRow } from "../order-queries.server";
import { formatMinor, formatTime, Frame, MarketSelect, Pager, statusLabel, type Notice } from "./frame";

function pageLink(filter: OrderFilter, page: number): string {
  const params = new URLSearchParams();
  if (filter.query) params.set("q", filter.query);
  if (filter.status) params.set("status", filter.status);
  if (filter.market) params.set("market", filter.market);
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (filter.test !== "all") params.set("test", filter.test);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `/admin/orders?${query}` : "/admin/orders";
}

export function OrdersView({ operator, filter, rows, total, pages, notice }: { operator: Operator; filter: OrderFilter; rows: OrderListRow[]; total: number; pages: number; notice?: Notice | null }) {
  return (
    <Frame operator={operator} section="orders" title="Orders" notice={notice}>
      <form method="get" action="/admin/orders" className="panel filters" role="search">
        <label>
          Search
          <input type="search" name="q" defaultValue={filter.query} placeholder="Number, e-mail or name" size={28} />
        </label>
        <label>
          Status
          <select name="status" defaultValue={filter.status}>
            <option value="">Any</option>
            {orderStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        </label>
        <MarketSelect value={filter.market} noneLabel="Any" />
        <label>
          From
          <input type="date" name="from" defaultValue={filter.from} />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={filter.to} />
        </label>
        <label>
          Mode
          <select name="test" defaultValue={filter.test}>
            <option value="all">Test and live</option>
            <option value="live">Live only</option>
            <option value="test">Test only</option>
          </select>
        </label>
        <button type="submit">Show</button>
        <a href="/admin/orders">Reset</a>
      </form>
      <div className="panel">
        <p className="muted" role="status">
          {total === 0 ? "No orders match." : `${total.toLocaleString("en-GB")} order${total === 1 ? "" : "s"}, page ${filter.page} of ${pages}.`}
        </p>
        {rows.length > 0 ? (
          <table>
            <caption className="skip">Orders, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Placed</th>
                <th scope="col">Customer</th>
                <th scope="col">Market</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-testid="admin-order-row">
                  <td className="nowrap">
                    <a href={`/admin/orders/${row.number}`}>{row.number}</a> {row.test ? <span className="tag-test">test</span> : null}
                  </td>
                  <td>{formatTime(row.createdAt)}</td>
                  <td>
                    {row.name}
                    <br />
                    <span className="muted">{row.email}</span>
                  </td>
                  <td>{row.market}</td>
                  <td>
                    <span className="status">{statusLabel(row.status)}</span>
                  </td>
                  <td className="num">{formatMinor(row.totalMinor, row.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
        <Pager page={filter.page} pages={pages} link={(page) => pageLink(filter, page)} label="Pages of orders" />
      </div>
    </Frame>
  );
}
