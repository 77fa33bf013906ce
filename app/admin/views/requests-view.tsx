import type { ReactNode } from "react";
import type { Operator } from "../../operators/audit.server";
import {
  refundRequestTransitions,
  withdrawalTransitions,
  type FeedbackRow,
  type LinkedOrder,
  type QueuePage,
  type RefundRequestRow,
  type WithdrawalRow,
} from "../queues.server";
import { may } from "../operators.server";
import { formatMinor, formatTime, Frame, Pager, statusLabel, type Notice } from "./frame";

export interface RequestPages {
  withdrawals: QueuePage<WithdrawalRow>;
  refundRequests: QueuePage<RefundRequestRow>;
  feedback: QueuePage<FeedbackRow>;
}

/** The withdrawn order as it stands, and its refund through the provider for the lines the operator ticks. */
function WithdrawalRefund({ row, canRefund, refundKey }: { row: WithdrawalRow; canRefund: boolean; refundKey: string }) {
  const order = row.order;
  if (!order) return null;
  const money = (minor: number) => formatMinor(minor, order.currency);
  const facts = (
    <p className="muted">
      Order {statusLabel(order.status)}; refunded so far {money(order.refundedMinor)}
    </p>
  );
  if (!canRefund || row.status !== "received" || order.refundableLines.length === 0) return facts;
  return (
    <>
      {facts}
      <form method="post" action={`/admin/requests/withdrawal/${row.id}/refund`} data-testid="admin-withdrawal-refund">
        <input type="hidden" name="requestKey" value={refundKey} />
        <fieldset>
          <legend>Refund the lines this withdrawal concerns</legend>
          {order.refundableLines.map((line) => (
            <label key={line.id} className="inline">
              <input type="checkbox" name="line" value={line.id} /> {line.productName} ({money(line.grossMinor)})
            </label>
          ))}
          <button type="submit" className="danger">
            Refund ticked lines…
          </button>
        </fieldset>
      </form>
    </>
  );
}

function OrderLink({ order, typed }: { order: LinkedOrder | null; typed: string }) {
  return order ? <a href={`/admin/orders/${order.number}`}>{order.number}</a> : <span title="No order with this number and e-mail address">{typed || "—"} (no match)</span>;
}

/** What each status an operator may set means, said beside it in the list. */
const statusMeanings: Readonly<Record<string, string>> = {
  closed: "closed (nothing to refund, or refunded elsewhere)",
};

/** The operator's word on a request: nothing is chosen until they choose it. */
function StatusForm({ action, status, next, label }: { action: string; status: string; next: readonly string[]; label: string }) {
  if (next.length === 0) return <span className="status">{statusLabel(status)}</span>;
  return (
    <form method="post" action={action} className="actions">
      <span className="status">{statusLabel(status)}</span>
      <label className="inline">
        <span className="skip">New status for {label}</span>
        <select name="status" required defaultValue="">
          <option value="" disabled>
            Choose…
          </option>
          {next.map((value) => (
            <option key={value} value={value}>
              {statusMeanings[value] ?? statusLabel(value)}
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

/** A link to another page of one queue, keeping the other queues' pages. */
function queuePage(name: string, current: URLSearchParams) {
  return (target: number) => {
    const params = new URLSearchParams(current);
    params.set(name, String(target));
    return `/admin/requests?${params.toString()}`;
  };
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

export function RequestsView({
  operator,
  pages,
  query,
  notice,
  refundKey,
}: {
  operator: Operator;
  pages: RequestPages;
  query: URLSearchParams;
  notice?: Notice | null;
  /** A fresh key for each refund form, so that a form sent twice is one refund. */
  refundKey: () => string;
}) {
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
                  <WithdrawalRefund row={row} canRefund={may(operator, "refund")} refundKey={refundKey()} />
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
        <Pager page={withdrawals.page} pages={withdrawals.pages} link={queuePage("withdrawals", query)} label="Pages of withdrawals" />
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
        <Pager page={refundRequests.page} pages={refundRequests.pages} link={queuePage("refundRequests", query)} label="Pages of refund requests" />
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
        <Pager page={feedback.page} pages={feedback.pages} link={queuePage("feedback", query)} label="Pages of feedback" />
      </Queue>
    </Frame>
  );
}
