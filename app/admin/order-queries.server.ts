import { touchOfOrder } from "../attribution/touches.server";
import { listPage } from "./list-page";
import { redemptionOf } from "../orders/code-redemptions.server";
import { and, asc, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { auditLog } from "../operators/schema";
import { disputes, orderEvents, orderLines, orders, orderStatuses, payments, refunds, type OrderStatus } from "../orders/schema";
import { outbox } from "../mail/schema";
import { shipments } from "../parcels/schema";
import { markets } from "../market/markets";
import { normalizeOrderNumber } from "../orders/order-number";

/** The back office's reads of orders: the searchable list and one order with everything about it. */

export const ordersPerPage = 50;

export type TestFilter = "all" | "live" | "test";

export interface OrderFilter {
  query: string;
  status: OrderStatus | "";
  market: string;
  /** Inclusive days, `YYYY-MM-DD` in UTC. */
  from: string;
  to: string;
  test: TestFilter;
  page: number;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string) => dayPattern.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/** Reads the filter from a query string; anything malformed is dropped, never an error page. */
export function parseOrderFilter(params: URLSearchParams): OrderFilter {
  const status = params.get("status") ?? "";
  const market = params.get("market") ?? "";
  const test = params.get("test") ?? "all";
  const from = params.get("from") ?? "";
  const to = params.get("to") ?? "";
  return {
    query: (params.get("q") ?? "").trim().slice(0, 200),
    status: (orderStatuses as readonly string[]).includes(status) ? (status as OrderStatus) : "",
    market: markets.some((candidate) => candidate.country === market) ? market : "",
    from: isDay(from) ? from : "",
    to: isDay(to) ? to : "",
    test: test === "live" || test === "test" ? test : "all",
    page: listPage(params.get("page")),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

function conditions(filter: OrderFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.query) {
    const query = filter.query;
    const contains = `%${escapeLike(query)}%`;
    parts.push(
      or(
        eq(orders.number, normalizeOrderNumber(query) ?? query.toUpperCase()),
        ilike(orders.number, `${escapeLike(query)}%`),
        sql`lower(${orders.email}) = ${query.toLowerCase()}`,
        ilike(orders.email, contains),
        ilike(sql`${orders.givenName} || ' ' || ${orders.familyName}`, contains),
      ),
    );
  }
  if (filter.status) parts.push(eq(orders.status, filter.status));
  if (filter.market) parts.push(eq(orders.market, filter.market));
  if (filter.from) parts.push(gte(orders.createdAt, new Date(`${filter.from}T00:00:00Z`)));
  if (filter.to) parts.push(lt(orders.createdAt, new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000)));
  if (filter.test !== "all") parts.push(eq(orders.test, filter.test === "test"));
  return parts.length > 0 ? and(...parts) : undefined;
}

export interface OrderListRow {
  id: string;
  number: string;
  createdAt: Date;
  status: OrderStatus;
  market: string;
  currency: string;
  totalMinor: number;
  name: string;
  email: string;
  test: boolean;
  fulfilledAt: Date | null;
}

export async function listOrders(db: Database, filter: OrderFilter): Promise<{ rows: OrderListRow[]; total: number; pages: number }> {
  const where = conditions(filter);
  const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(orders).where(where);
  const total = counted?.total ?? 0;
  const rows = await db
    .select({
      id: orders.id,
      number: orders.number,
      createdAt: orders.createdAt,
      status: orders.status,
      market: orders.market,
      currency: orders.currency,
      // What was paid in all, upsells included, is the sum of the order's succeeded payments.
      totalMinor: sql<number>`coalesce((select sum(${payments.amountMinor}) from ${payments} where ${payments.orderId} = ${orders.id} and ${payments.status} = 'succeeded'), ${orders.totalMinor})::int`,
      name: sql<string>`${orders.givenName} || ' ' || ${orders.familyName}`,
      email: orders.email,
      test: orders.test,
      fulfilledAt: orders.fulfilledAt,
    })
    .from(orders)
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.number))
    .limit(ordersPerPage)
    .offset((filter.page - 1) * ordersPerPage);
  return { rows, total, pages: Math.max(1, Math.ceil(total / ordersPerPage)) };
}

export type TimelineEntry =
  | { kind: "event"; at: Date; type: string; fromStatus: string | null; toStatus: string | null; detail: Record<string, unknown> }
  | { kind: "operator"; at: Date; action: string; operator: string; detail: Record<string, unknown> };

export async function orderDetail(db: Database, number: string) {
  const [order] = await db.select().from(orders).where(eq(orders.number, number.toUpperCase()));
  if (!order) return null;
  const [lines, orderPayments, orderRefunds, events, audit, mails, parcels, orderDisputes] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id)),
    db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(asc(payments.createdAt)),
    db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(asc(refunds.createdAt)),
    db.select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(asc(orderEvents.id)),
    db.select().from(auditLog).where(eq(auditLog.orderId, order.id)).orderBy(asc(auditLog.id)),
    db
      .select({ id: outbox.id, kind: outbox.kind, status: outbox.status, recipient: outbox.recipient, attempts: outbox.attempts, sendAfter: outbox.sendAfter, sentAt: outbox.sentAt, lastError: outbox.lastError })
      .from(outbox)
      .where(eq(outbox.orderId, order.id))
      .orderBy(asc(outbox.id)),
    db.select().from(shipments).where(eq(shipments.orderId, order.id)).orderBy(asc(shipments.id)),
    db.select().from(disputes).where(eq(disputes.orderId, order.id)).orderBy(asc(disputes.createdAt)),
  ]);
  const timeline: TimelineEntry[] = [
    ...events.map((event) => ({ kind: "event" as const, at: event.createdAt, type: event.type, fromStatus: event.fromStatus, toStatus: event.toStatus, detail: event.detail })),
    ...audit.map((entry) => ({ kind: "operator" as const, at: entry.createdAt, action: entry.action, operator: entry.operatorEmail, detail: entry.detail })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime());
  const refundedLineIds = new Set(orderRefunds.filter((refund) => refund.status !== "failed").flatMap((refund) => refund.lineIds));
  const paidMinor = orderPayments.filter((payment) => payment.status === "succeeded").reduce((sum, payment) => sum + payment.amountMinor, 0);
  const refundedMinor = orderRefunds.filter((refund) => refund.status === "succeeded" && refund.kind === "order").reduce((sum, refund) => sum + refund.amountMinor, 0);
  const redemption = (await redemptionOf(db, order.id)) ?? null;
  const touch = await touchOfOrder(db, order.id);
  return { order, touch, lines, payments: orderPayments, refunds: orderRefunds, disputes: orderDisputes, timeline, mails, shipments: parcels, refundedLineIds, paidMinor, refundedMinor, redemption };
}

export type OrderDetail = NonNullable<Awaited<ReturnType<typeof orderDetail>>>;
