import type { ReactNode } from "react";
import type { Operator } from "../audit.server";
import {
  refundRequestTransitions,
  withdrawalTransitions,
  type FeedbackRow,
  type LinkedOrder,
  type QueuePage,
  type RefundRequestRow,
  type WithdrawalRow,
} from "../queues.server";
import { formatTime, Frame, statusLabel, type Notice } from "./frame";

export interface RequestPages {
  withdrawals: QueuePage<WithdrawalRow>;
  refundRequests: QueuePage<RefundRequestRow>;
  feedback: QueuePage<FeedbackRow>;
}

function OrderLink({ order, typed }: { order: LinkedOrder | null; typed: string }) {
  return order ? <a href={`/admin/orders/${order.number}`}>{order.number}</a> : <span title="No order with this number and e-mail address">{typed || "—"} (no match)</span>;
}

function StatusForm({ action, status, next, label }: { action: string; status: string; next: readonly string[]; label: string }) {
  if (next.length === 0) return <span className="status">{statusLabel(status)}</span>;
  return (
    <form method="post" action={action} className="actions">
      <span className="status">{statusLabel(status)}</span>
      <label className="inline">
        <span className="skip">New status for {label}</span>
        <select name="status" defaultValue={next[0]}>
          {next.map((value) => (
            <option key={value} value={value}>
              {statusLabel(value)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="secondary">
        Set
      </button>
    </form>
  );
}

function Pager({ name, page, pages, current }: { name: string; page: number; pages: number; current: URLSearchParams }) {
  if (pages <= 1) return null;
  const link = (target: number) => {
    const params = new URLSearchParams(current);
    params.set(name, String(target));
    return `/admin/requests?${params.toString()}`;
  };
  return (
    <nav className="pager" aria-label={`${name} pages`}>
      {page > 1 ? <a href={link(page - 1)}>← Newer</a> : null}
      <span>
        Page {page} of {pages}
      </span>
      {page < pages ? <a href={link(page + 1)}>Older →</a> : null}
    </nav>
  );
}

function Queue({ id, title, count, testId, children }: { id: string; title: string; count: number; testId?: string; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>
        {title} ({count})
      </h2>
      {count === 0 ? <p className="muted">None yet.</p> : children}
    </section>
  );
}

export function RequestsView({ operator, pages, query, notice }: { operator: Operator; pages: RequestPages; query: URLSearchParams; notice?: Notice | null }) {
  const { withdrawals, refundRequests, feedback } = pages;
  return (
    <Frame operator={operator} section="requests" title="Withdrawals and requests" notice={notice}>
      <Queue id="withdrawals" title="Withdrawals" count={withdrawals.total} testId="admin-withdrawals">
        <table>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Reference</th>
              <th scope="col">Order</th>
              <th scope="col">From</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {withdrawals.rows.map((row) => (
              <tr key={row.id}>
                <td className="nowrap">{formatTime(row.receivedAt)}</td>
                <td>{row.reference}</td>
                <td>
                  <OrderLink order={row.order} typed={row.orderNumber} />
                </td>
                <td>
                  {row.name}
                  <br />
                  <span className="muted">{row.email}</span>
                </td>
                <td>
                  <StatusForm action={`/admin/requests/withdrawal/${row.id}`} status={row.status} next={withdrawalTransitions[row.status as keyof typeof withdrawalTransitions] ?? []} label={row.reference} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager name="withdrawals" page={withdrawals.page} pages={withdrawals.pages} current={query} />
      </Queue>

      <Queue id="refund-requests" title="Refund requests" count={refundRequests.total}>
        <table>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Order</th>
              <th scope="col">From</th>
              <th scope="col">Reason and message</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {refundRequests.rows.map((row) => (
              <tr key={row.id}>
                <td className="nowrap">{formatTime(row.createdAt)}</td>
                <td>
                  <OrderLink order={row.order} typed={row.orderNumber} />
                </td>
                <td>{row.email}</td>
                <td>
                  <strong>{row.reason}</strong>
                  {row.message ? <p>{row.message}</p> : null}
                </td>
                <td>
                  <StatusForm action={`/admin/requests/refund-request/${row.id}`} status={row.status} next={refundRequestTransitions[row.status as keyof typeof refundRequestTransitions] ?? []} label={`the request about ${row.orderNumber}`} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager name="refundRequests" page={refundRequests.page} pages={refundRequests.pages} current={query} />
      </Queue>

      <Queue id="feedback" title="Feedback" count={feedback.total}>
        <table>
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col" className="num">
                Rating
              </th>
              <th scope="col">Comment</th>
              <th scope="col">From</th>
              <th scope="col">Language</th>
            </tr>
          </thead>
          <tbody>
            {feedback.rows.map((row) => (
              <tr key={row.id}>
                <td className="nowrap">{formatTime(row.createdAt)}</td>
                <td className="num">{row.rating} / 5</td>
                <td>{row.comment || <span className="muted">—</span>}</td>
                <td>{row.email ?? <span className="muted">anonymous</span>}</td>
                <td>{row.locale}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <Pager name="feedback" page={feedback.page} pages={feedback.pages} current={query} />
      </Queue>
    </Frame>
  );
}
