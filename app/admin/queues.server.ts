import { listPage } from "./list-page";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { feedback, orderLines, orders, refundRequests, refunds, withdrawals } from "../orders/schema";
import { recordAudit, type Operator } from "../operators/audit.server";

/**
 * The customer-service queues of the back office (docs/architecture.md, 'What the back office does'; withdrawals: decision 0042): withdrawals, refund requests and
 * feedback as the storefront's forms stored them, newest first, and the operator's word on the first
 * two. Feedback has no status: it is read, not worked through.
 */

export const queuePageSize = 50;

export const withdrawalStatuses = ["received", "refunded", "closed"] as const;
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];
/**
 * A withdrawal is received, then refunded or closed. Only closing is an operator's word (nothing to
 * refund, or refunded elsewhere): `refunded` follows a refund the provider made, through
 * `markWithdrawalRefunded`, never a choice in a list.
 */
export const withdrawalTransitions: Readonly<Record<WithdrawalStatus, readonly WithdrawalStatus[]>> = {
  received: ["closed"],
  refunded: [],
  closed: [],
};

export const refundRequestStatuses = ["open", "resolved", "declined"] as const;
export type RefundRequestStatus = (typeof refundRequestStatuses)[number];
export const refundRequestTransitions: Readonly<Record<RefundRequestStatus, readonly RefundRequestStatus[]>> = {
  open: ["resolved", "declined"],
  resolved: [],
  declined: [],
};

export interface QueuePage<Row> {
  rows: Row[];
  total: number;
  page: number;
  pages: number;
}

/** The order a submission was matched to (number and e-mail agreed), when it was. */
export interface LinkedOrder {
  id: string;
  number: string;
}

/** A line of a withdrawn order that has not been refunded yet. */
export interface RefundableLine {
  id: number;
  productName: string;
  grossMinor: number;
}

/** The order a withdrawal names, as it stands: what has really been given back, and what is left. */
export interface WithdrawnOrder extends LinkedOrder {
  status: string;
  currency: string;
  refundedMinor: number;
  refundableLines: RefundableLine[];
}

export interface WithdrawalRow {
  id: string;
  reference: string;
  name: string;
  email: string;
  /** As the customer typed it. */
  orderNumber: string;
  order: WithdrawnOrder | null;
  locale: string;
  status: string;
  receivedAt: Date;
}

export interface RefundRequestRow {
  id: string;
  orderNumber: string;
  email: string;
  reason: string;
  message: string;
  order: LinkedOrder | null;
  locale: string;
  status: string;
  createdAt: Date;
}

export interface FeedbackRow {
  id: string;
  rating: number;
  comment: string;
  email: string | null;
  locale: string;
  createdAt: Date;
}

const pagesOf = (total: number) => Math.max(1, Math.ceil(total / queuePageSize));
const linked = (id: string | null, number: string | null): LinkedOrder | null => (id && number ? { id, number } : null);

export async function listWithdrawals(db: Database, page = 1): Promise<QueuePage<WithdrawalRow>> {
  const current = listPage(page);
  const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(withdrawals);
  const rows = await db
    .select({ row: withdrawals, linkedNumber: orders.number, orderStatus: orders.status, currency: orders.currency })
    .from(withdrawals)
    .leftJoin(orders, eq(orders.id, withdrawals.orderId))
    .orderBy(desc(withdrawals.receivedAt), desc(withdrawals.id))
    .limit(queuePageSize)
    .offset((current - 1) * queuePageSize);
  const orderIds = [...new Set(rows.flatMap(({ row }) => (row.orderId ? [row.orderId] : [])))];
  const [lines, given] = orderIds.length === 0 ? [[], []] : await Promise.all([
    db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(asc(orderLines.id)),
    db.select().from(refunds).where(and(inArray(refunds.orderId, orderIds), inArray(refunds.status, ["pending", "succeeded"]))),
  ]);
  const refundedLineIds = new Set(given.flatMap((refund) => refund.lineIds));
  const orderOf = (orderId: string | null, number: string | null, status: string | null, currency: string | null): WithdrawnOrder | null =>
    orderId && number
      ? {
          id: orderId,
          number,
          status: status ?? "",
          currency: currency ?? "EUR",
          refundedMinor: given.filter((refund) => refund.orderId === orderId && refund.status === "succeeded" && refund.kind === "order").reduce((sum, refund) => sum + refund.amountMinor, 0),
          refundableLines: lines
            .filter((line) => line.orderId === orderId && !refundedLineIds.has(line.id))
            .map((line) => ({ id: line.id, productName: line.productName, grossMinor: line.grossMinor })),
        }
      : null;
  const total = counted?.total ?? 0;
  return {
    rows: rows.map(({ row, linkedNumber, orderStatus, currency }) => ({
      id: row.id,
      reference: row.reference,
      name: row.name,
      email: row.email,
      orderNumber: row.orderNumber,
      order: orderOf(row.orderId, linkedNumber, orderStatus, currency),
      locale: row.locale,
      status: row.status,
      receivedAt: row.receivedAt,
    })),
    total,
    page: current,
    pages: pagesOf(total),
  };
}

/** A received withdrawal, with the order it names, for a refund from the queue. */
export async function withdrawalForRefund(db: Database, id: string): Promise<{ id: string; reference: string; status: string; orderId: string | null } | null> {
  if (!uuidPattern.test(id)) return null;
  const [row] = await db.select({ id: withdrawals.id, reference: withdrawals.reference, status: withdrawals.status, orderId: withdrawals.orderId }).from(withdrawals).where(eq(withdrawals.id, id));
  return row ?? null;
}

/**
 * A withdrawal becomes `refunded` once the provider has given the money back: called with the
 * refunds that succeeded, audited with them. Anything else leaves it as it was.
 */
export async function markWithdrawalRefunded(db: Database, operator: Operator, id: string, refundIds: readonly string[]): Promise<StatusChangeResult> {
  return db.transaction(async (tx): Promise<StatusChangeResult> => {
    const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for("update");
    if (!row) return { kind: "refused", reason: "not_found" };
    if (row.status === "refunded") return { kind: "unchanged", status: row.status };
    if (row.status !== "received" || !row.orderId || refundIds.length === 0) return { kind: "refused", reason: "not_allowed" };
    const done = await tx
      .select({ id: refunds.id })
      .from(refunds)
      .where(and(inArray(refunds.id, [...refundIds]), eq(refunds.orderId, row.orderId), eq(refunds.status, "succeeded")));
    if (done.length !== refundIds.length) return { kind: "refused", reason: "not_allowed" };
    await tx.update(withdrawals).set({ status: "refunded" }).where(eq(withdrawals.id, id));
    await recordAudit(tx, operator, "withdrawal_status_changed", { orderId: row.orderId, detail: { withdrawal: row.reference, from: row.status, to: "refunded", refunds: refundIds.join(", ") } });
    return { kind: "changed", from: row.status, to: "refunded" };
  });
}

export async function listRefundRequests(db: Database, page = 1): Promise<QueuePage<RefundRequestRow>> {
  const current = listPage(page);
  const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(refundRequests);
  const rows = await db
    .select({ row: refundRequests, linkedNumber: orders.number })
    .from(refundRequests)
    .leftJoin(orders, eq(orders.id, refundRequests.orderId))
    .orderBy(desc(refundRequests.createdAt), desc(refundRequests.id))
    .limit(queuePageSize)
    .offset((current - 1) * queuePageSize);
  const total = counted?.total ?? 0;
  return {
    rows: rows.map(({ row, linkedNumber }) => ({
      id: row.id,
      orderNumber: row.orderNumber,
      email: row.email,
      reason: row.reason,
      message: row.message,
      order: linked(row.orderId, linkedNumber),
      locale: row.locale,
      status: row.status,
      createdAt: row.createdAt,
    })),
    total,
    page: current,
    pages: pagesOf(total),
  };
}

export async function listFeedback(db: Database, page = 1): Promise<QueuePage<FeedbackRow>> {
  const current = listPage(page);
  const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(feedback);
  const rows = await db
    .select({ id: feedback.id, rating: feedback.rating, comment: feedback.comment, email: feedback.email, locale: feedback.locale, createdAt: feedback.createdAt })
    .from(feedback)
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(queuePageSize)
    .offset((current - 1) * queuePageSize);
  const total = counted?.total ?? 0;
  return { rows, total, page: current, pages: pagesOf(total) };
}

export type StatusChangeResult =
  | { kind: "changed"; from: string; to: string }
  /** It had that status already (a form sent twice): nothing written. */
  | { kind: "unchanged"; status: string }
  | { kind: "refused"; reason: "unknown_status" | "not_found" | "not_allowed" };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isOneOf = <T extends string>(values: readonly T[], value: string): value is T => (values as readonly string[]).includes(value);

/** Moves a withdrawal on (`received` → `refunded` | `closed`), with an audit entry on its order when it has one. */
export async function setWithdrawalStatus(db: Database, operator: Operator, id: string, status: string): Promise<StatusChangeResult> {
  if (!isOneOf(withdrawalStatuses, status)) return { kind: "refused", reason: "unknown_status" };
  if (!uuidPattern.test(id)) return { kind: "refused", reason: "not_found" };
  return db.transaction(async (tx): Promise<StatusChangeResult> => {
    const [row] = await tx.select().from(withdrawals).where(eq(withdrawals.id, id)).for("update");
    if (!row) return { kind: "refused", reason: "not_found" };
    if (row.status === status) return { kind: "unchanged", status };
    if (!isOneOf(withdrawalStatuses, row.status) || !withdrawalTransitions[row.status].includes(status)) return { kind: "refused", reason: "not_allowed" };
    await tx.update(withdrawals).set({ status }).where(eq(withdrawals.id, id));
    await recordAudit(tx, operator, "withdrawal_status_changed", { orderId: row.orderId, detail: { withdrawal: row.reference, from: row.status, to: status } });
    return { kind: "changed", from: row.status, to: status };
  });
}

/** Answers a refund request (`open` → `resolved` | `declined`), with an audit entry on its order when it has one. */
export async function setRefundRequestStatus(db: Database, operator: Operator, id: string, status: string): Promise<StatusChangeResult> {
  if (!isOneOf(refundRequestStatuses, status)) return { kind: "refused", reason: "unknown_status" };
  if (!uuidPattern.test(id)) return { kind: "refused", reason: "not_found" };
  return db.transaction(async (tx): Promise<StatusChangeResult> => {
    const [row] = await tx.select().from(refundRequests).where(eq(refundRequests.id, id)).for("update");
    if (!row) return { kind: "refused", reason: "not_found" };
    if (row.status === status) return { kind: "unchanged", status };
    if (!isOneOf(refundRequestStatuses, row.status) || !refundRequestTransitions[row.status].includes(status)) return { kind: "refused", reason: "not_allowed" };
    await tx.update(refundRequests).set({ status }).where(eq(refundRequests.id, id));
    await recordAudit(tx, operator, "refund_request_status_changed", { orderId: row.orderId, detail: { refundRequest: row.id, from: row.status, to: status } });
    return { kind: "changed", from: row.status, to: status };
  });
}
