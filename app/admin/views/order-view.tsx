import type { Touch } from "../../attribution/touch";
import type { Operator } from "../../operators/audit.server";
import { disputeLost } from "../../orders/disputed-orders";
import { may } from "../operators.server";
import type { OrderDetail, TimelineEntry } from "../order-queries.server";
import { formatMinor, formatTime, Frame, ReasonSelect, statusLabel, type Notice } from "./frame";
import type { LineLink } from "../../downloads/links.server";
import { DownloadsPanel } from "./downloads-panel";
import { ShipmentsPanel } from "./shipments-panel";

export const refundReasons = {
  withdrawal: "Customer withdrew from the contract",
  guarantee: "Money-back guarantee",
  damaged: "Damaged or wrong delivery",
  goodwill: "Goodwill",
  other: "Other",
} as const;

export type RefundReason = keyof typeof refundReasons;

/** Amounts in event details are minor units of the order's currency. */
const amountKeys = new Set(["amount", "total", "refundedInAll"]);

function describe(detail: Record<string, unknown>, currency: string): string {
  return Object.entries(detail)
    .filter(([key, value]) => value !== null && value !== "" && key !== "currency")
    .map(([key, value]) => `${key}: ${amountKeys.has(key) && typeof value === "number" ? formatMinor(value, currency) : String(value)}`)
    .join(", ");
}

/** What became of the refund of a payment charged after the store had closed it: the operator acts on a failed one. */
function StrayRefundNote({ refund }: { refund: OrderDetail["refunds"][number] | undefined }) {
  if (!refund) return null;
  if (refund.status === "succeeded") return <strong>{` — charged anyway, refunded at once (${refund.providerRef ?? refund.id})`}</strong>;
  if (refund.status === "pending") return <strong>{` — charged anyway, refund pending at the provider (${refund.providerRef ?? refund.id})`}</strong>;
  return <strong className="error">{` — charged anyway, and the refund FAILED: give the money back`}</strong>;
}

function TimelineRow({ entry, currency }: { entry: TimelineEntry; currency: string }) {
  const what =
    entry.kind === "event"
      ? `${entry.type.replace(/_/g, " ")}${entry.toStatus ? ` (${statusLabel(entry.fromStatus ?? "")} → ${statusLabel(entry.toStatus)})` : ""}`
      : `${entry.action.replace(/_/g, " ")} by ${entry.operator}`;
  return (
    <tr>
      <td className="nowrap">{formatTime(entry.at)}</td>
      <td>{entry.kind === "event" ? "Store" : "Operator"}</td>
      <td>{what}</td>
      <td className="muted">{describe(entry.detail, currency)}</td>
    </tr>
  );
}

/** An order's touch in one line: source / medium, then whatever else the visit carried. */
function touchText(touch: Touch | null): string {
  if (!touch) return "not recorded (placed before touches were kept)";
  const parts = [
    `${touch.source} / ${touch.medium}`,
    touch.campaign ? `campaign ${touch.campaign}` : null,
    touch.content ? `content ${touch.content}` : null,
    touch.term ? `term ${touch.term}` : null,
    touch.clickIdKind && touch.clickId ? `${touch.clickIdKind} ${touch.clickId}` : null,
    touch.referrerHost ? `linked from ${touch.referrerHost}` : null,
    touch.landingPath ? `landed on ${touch.landingPath}` : null,
  ];
  return parts.filter((part) => part !== null).join(" · ");
}

export function OrderView({
  operator,
  detail,
  refundKey,
  notice,
  downloads = [],
}: {
  operator: Operator;
  detail: OrderDetail;
  refundKey: string;
  notice?: Notice | null;
  downloads?: readonly LineLink[];
}) {
  const { order, lines, payments, refunds, disputes, timeline, mails, refundedLineIds, paidMinor, refundedMinor } = detail;
  const money = (minor: number) => formatMinor(minor, order.currency);
  // Refunds the provider took but has not paid out yet are not given back, and not refundable again either.
  const pendingMinor = refunds.filter((refund) => refund.status === "pending").reduce((sum, refund) => sum + refund.amountMinor, 0);
  const restMinor = paidMinor - refundedMinor - pendingMinor;
  const refundable = restMinor > 0 && ["paid", "fulfilled", "partially_refunded", "withdrawn"].includes(order.status);
  const openDisputes = disputes.filter((dispute) => dispute.status === "open");
  const lostDisputes = disputes.filter(disputeLost);
  const canFulfil = openDisputes.length === 0 && lostDisputes.length === 0 && !order.fulfilledAt && order.funnelEndedAt && ["paid", "partially_refunded"].includes(order.status) && lines.some((line) => line.kind === "supplement");
  return (
    <Frame operator={operator} section="orders" title={`Order ${order.number}`} notice={notice}>
      <p>
        <a href="/admin/orders">← All orders</a>
      </p>
      {openDisputes.map((dispute) => (
        <p key={dispute.id} className="notice error" role="alert" data-testid="order-dispute" data-dispute-status="open">
          The customer disputes a payment of this order ({dispute.provider} dispute {dispute.providerRef}, opened {formatTime(dispute.createdAt)}): it is held out of
          fulfilment until the dispute is closed. Answer it in the provider&apos;s dashboard.
        </p>
      ))}
      {lostDisputes.map((dispute) => (
        <p key={dispute.id} className="notice error" role="alert" data-testid="order-dispute" data-dispute-status="lost">
          Dispute lost ({dispute.provider} dispute {dispute.providerRef}, closed {formatTime(dispute.closedAt)}: {dispute.outcome}): the customer&apos;s bank or the payment provider took
          the payment back, so the order stays held out of fulfilment and its downloads refuse. Settle it with the customer in the provider&apos;s dashboard.
        </p>
      ))}
      {disputes
        .filter((dispute) => dispute.status === "closed" && !disputeLost(dispute))
        .map((dispute) => (
          <p key={dispute.id} className="notice" data-testid="order-dispute" data-dispute-status="closed">
            A dispute of a payment of this order ({dispute.provider} dispute {dispute.providerRef}) was closed {formatTime(dispute.closedAt)}: {dispute.outcome ?? "no outcome given"}.
          </p>
        ))}
      <div className="grid">
        <section className="panel" aria-labelledby="facts">
          <h2 id="facts">Order</h2>
          <dl className="facts">
            <dt>Number</dt>
            <dd>
              {order.number} {order.test ? <span className="tag-test">test</span> : null}
            </dd>
            <dt>Status</dt>
            <dd>
              <span className="status">{statusLabel(order.status)}</span>
            </dd>
            <dt>Placed</dt>
            <dd>{formatTime(order.createdAt)}</dd>
            <dt>Paid</dt>
            <dd>{formatTime(order.paidAt)}</dd>
            <dt>Funnel ended</dt>
            <dd>{formatTime(order.funnelEndedAt)}</dd>
            <dt>Fulfilled</dt>
            <dd>{formatTime(order.fulfilledAt)}</dd>
            <dt>Market</dt>
            <dd>
              {order.market} ({order.locale}, {order.currency})
            </dd>
            <dt>Variant</dt>
            <dd>{order.funnelSrc ?? "—"}</dd>
            <dt>Split test arm</dt>
            <dd data-testid="order-experiment-arm">{order.experimentArm ?? "—"}</dd>
            <dt>Came from</dt>
            <dd data-testid="order-touch">{touchText(detail.touch)}</dd>
            <dt>Paid in all</dt>
            <dd>{money(paidMinor)}</dd>
            <dt>Refunded</dt>
            <dd>{money(refundedMinor)}</dd>
          </dl>
        </section>
        <section className="panel" aria-labelledby="customer">
          <h2 id="customer">Customer and delivery address</h2>
          {order.erasedAt ? <p className="muted">Personal data erased on request on {formatTime(order.erasedAt)}.</p> : null}
          <address>
            {order.givenName} {order.familyName}
            <br />
            {order.addressLine1}
            {order.addressLine2 ? (
              <>
                <br />
                {order.addressLine2}
              </>
            ) : null}
            <br />
            {order.postalCode} {order.city}
            <br />
            {order.country}
          </address>
          <p>
            {order.email}
            {order.phone ? (
              <>
                <br />
                {order.phone}
              </>
            ) : null}
          </p>
        </section>
      </div>

      <section className="panel" aria-labelledby="lines">
        <h2 id="lines">Lines</h2>
        <form method="post" action={`/admin/orders/${order.number}/refund`}>
          <input type="hidden" name="requestKey" value={refundKey} />
          <table>
            <thead>
              <tr>
                {refundable && may(operator, "refund") ? <th scope="col">Refund</th> : null}
                <th scope="col">Product</th>
                <th scope="col">Step</th>
                <th scope="col" className="num">
                  Packs
                </th>
                <th scope="col" className="num">
                  VAT
                </th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.id}>
                  {refundable && may(operator, "refund") ? (
                    <td>
                      {refundedLineIds.has(line.id) ? null : (
                        <input type="checkbox" name="line" value={line.id} aria-label={`Refund ${line.productName}`} />
                      )}
                    </td>
                  ) : null}
                  <td>
                    {line.productName} <span className="muted">({line.kind === "digital" ? "digital" : line.productId})</span>
                  </td>
                  <td>{line.source}</td>
                  <td className="num">{line.units}</td>
                  <td className="num">{(line.vatRateBp / 100).toFixed(line.vatRateBp % 100 === 0 ? 0 : 1)} %</td>
                  <td className="num">{money(line.grossMinor)}</td>
                  <td>{refundedLineIds.has(line.id) ? "refunded" : ""}</td>
                </tr>
              ))}
              {detail.redemption ? (
                <tr data-testid="discount-line">
                  {refundable && may(operator, "refund") ? <td /> : null}
                  <td colSpan={4}>
                    Code {detail.redemption.code} <span className="muted">(already taken off the lines above; {detail.redemption.status})</span>
                  </td>
                  <td className="num">{money(-detail.redemption.discountMinor)}</td>
                  <td />
                </tr>
              ) : null}
              <tr>
                {refundable && may(operator, "refund") ? <td /> : null}
                <td colSpan={4}>Delivery</td>
                <td className="num">{money(order.deliveryMinor)}</td>
                <td />
              </tr>
            </tbody>
          </table>
          {refundable && may(operator, "refund") ? (
            <fieldset>
              <legend>Refund through the payment provider</legend>
              <p className="muted">Tick lines to refund them; with none ticked, everything not yet refunded ({money(restMinor)}) is refunded.</p>
              <div className="actions">
                <ReasonSelect label="Reason" reasons={refundReasons} defaultValue="withdrawal" />
                <label>
                  Note (optional)
                  <input type="text" name="note" maxLength={200} size={32} />
                </label>
                <button type="submit" className="danger" data-testid="admin-refund">
                  Refund
                </button>
              </div>
            </fieldset>
          ) : null}
        </form>
      </section>

      <ShipmentsPanel detail={detail} canRecord={may(operator, "fulfil") && !order.erasedAt && Boolean(order.fulfilledAt || canFulfil)} />
      <DownloadsPanel
        detail={detail}
        links={downloads}
        canResend={may(operator, "fulfil") && !order.erasedAt && order.paidAt !== null && ["paid", "fulfilled", "partially_refunded"].includes(order.status)}
        requestId={refundKey}
      />

      <section className="panel" aria-labelledby="payments">
        <h2 id="payments">Payments and refunds</h2>
        {refunds
          .filter((refund) => refund.status === "failed")
          .map((refund) =>
            refund.kind === "stray" ? (
              <p key={refund.id} className="notice error" role="alert" data-testid="stray-refund-failed">
                A payment the customer had not wanted to make ({money(refund.amountMinor)}, {refund.reason}) was charged, and giving it back failed at the payment provider
                {refund.failureReason ? ` (${refund.failureReason})` : ""}: refund that charge in the provider&apos;s dashboard, or give the money back another way.
              </p>
            ) : (
              <p key={refund.id} className="notice error" role="alert" data-testid="refund-failed">
                The refund of {money(refund.amountMinor)} of {formatTime(refund.createdAt)} failed at the payment provider
                {refund.failureReason ? ` (${refund.failureReason})` : ""}: nothing was given back and the customer was not told. Refund again, or give the money back another way.
              </p>
            ),
          )}
        {refunds
          .filter((refund) => refund.status === "pending" && refund.kind === "order")
          .map((refund) => (
            <p key={refund.id} className="notice" data-testid="refund-pending">
              The refund of {money(refund.amountMinor)} of {formatTime(refund.createdAt)} is pending at the payment provider: the customer is told when it completes, and it shows here as failed if it does not.
            </p>
          ))}
        <table>
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">For</th>
              <th scope="col">Provider</th>
              <th scope="col">Method</th>
              <th scope="col">Status</th>
              <th scope="col">Reference</th>
              <th scope="col" className="num">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.id}>
                <td>{formatTime(payment.createdAt)}</td>
                <td>{payment.purpose}</td>
                <td>{payment.provider}</td>
                <td>{payment.method}</td>
                <td>
                  {payment.status}
                  {payment.failureCode ? ` (${payment.failureCode})` : ""}
                  {payment.supersededAt ? " — superseded: the buyer paid another way" : ""}
                  <StrayRefundNote refund={refunds.find((refund) => refund.kind === "stray" && refund.paymentId === payment.id)} />
                </td>
                <td className="muted">{payment.providerRef ?? "—"}</td>
                <td className="num">{money(payment.amountMinor)}</td>
              </tr>
            ))}
            {refunds.map((refund) => (
              <tr key={refund.id}>
                <td>{formatTime(refund.createdAt)}</td>
                <td>refund ({refund.reason})</td>
                <td colSpan={2} />
                <td>
                  {refund.status}
                  {refund.failureReason ? ` (${refund.failureReason})` : ""}
                </td>
                <td className="muted">{refund.providerRef ?? "—"}</td>
                <td className="num">−{money(refund.amountMinor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="panel" aria-labelledby="mails">
        <h2 id="mails">E-mails</h2>
        {mails.length === 0 ? (
          <p className="muted">No e-mail for this order.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">To</th>
                <th scope="col">Status</th>
                <th scope="col">Due</th>
                <th scope="col">Sent</th>
              </tr>
            </thead>
            <tbody>
              {mails.map((mail) => (
                <tr key={mail.id}>
                  <td>{mail.kind}</td>
                  <td>{mail.recipient}</td>
                  <td>
                    {mail.status}
                    {mail.attempts > 1 ? ` after ${mail.attempts} attempts` : ""}
                    {mail.lastError && mail.status !== "sent" ? <span className="muted"> ({mail.lastError})</span> : null}
                  </td>
                  <td>{formatTime(mail.sendAfter)}</td>
                  <td>{formatTime(mail.sentAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section className="panel" aria-labelledby="timeline">
        <h2 id="timeline">Timeline</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {timeline.map((entry, index) => (
              <TimelineRow key={index} entry={entry} currency={order.currency} />
            ))}
          </tbody>
        </table>
      </section>
    </Frame>
  );
}
