import { stringify } from "csv-stringify/sync";
import { and, asc, eq, inArray, isNotNull, isNull, not, sql, type SQL } from "drizzle-orm";
import type { Database, Transaction } from "../db/database.server";
import { lineRefunded } from "../orders/refunded-lines";
import { orderDisputed } from "../orders/disputed-orders";
import { orderLines, orders, type OrderStatus } from "../orders/schema";
import { changeStatus, recordEvent, type Order } from "../orders/order-records.server";
import { inviteReviews } from "../reviews/invitations.server";
import { recordAudit, type Operator } from "../operators/audit.server";

/**
 * Fulfilment (decisions 42 and 26): the physical lines the warehouse is to ship, as a CSV, and the
 * operator's word that an order went to the warehouse. A line ships once its order is paid and its
 * funnel has ended, so an upsell never travels in a parcel of its own.
 */

/** Statuses whose goods still go out. A partial refund leaves the rest of the order to ship. */
const shippableStatuses = ["paid", "partially_refunded"] as const satisfies readonly OrderStatus[];

export interface FulfilmentRow {
  orderId: string;
  orderNumber: string;
  paidAt: Date;
  lineId: number;
  productId: string;
  productName: string;
  /** Packs (units) of the product on this line. */
  packs: number;
  recipient: string;
  addressLine1: string;
  addressLine2: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2 of the delivery address. */
  country: string;
  phone: string;
  /** For the carrier's delivery notices. */
  email: string;
  market: string;
  test: boolean;
}

/** The conditions under which an order line is waiting to be shipped. */
function waitingToShip(): SQL {
  return and(
    eq(orderLines.kind, "supplement"),
    isNotNull(orders.funnelEndedAt),
    isNotNull(orders.paidAt),
    isNull(orders.fulfilledAt),
    isNull(orders.erasedAt),
    inArray(orders.status, [...shippableStatuses]),
    not(lineRefunded),
    not(orderDisputed),
  ) as SQL;
}

/** The physical lines waiting to ship, oldest payment first; test orders included and flagged. */
export async function pendingFulfilment(db: Database): Promise<FulfilmentRow[]> {
  const rows = await db
    .select({
      orderId: orders.id,
      orderNumber: orders.number,
      paidAt: orders.paidAt,
      lineId: orderLines.id,
      productId: orderLines.productId,
      productName: orderLines.productName,
      packs: orderLines.units,
      givenName: orders.givenName,
      familyName: orders.familyName,
      addressLine1: orders.addressLine1,
      addressLine2: orders.addressLine2,
      postalCode: orders.postalCode,
      city: orders.city,
      country: orders.country,
      phone: orders.phone,
      email: orders.email,
      market: orders.market,
      test: orders.test,
    })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(waitingToShip())
    .orderBy(asc(orders.paidAt), asc(orders.number), asc(orderLines.id));
  return rows.map(({ givenName, familyName, paidAt, ...row }) => ({
    ...row,
    // `waitingToShip` keeps only paid orders.
    paidAt: paidAt as Date,
    recipient: `${givenName} ${familyName}`.trim(),
  }));
}

const csvColumns: readonly { header: string; value: (row: FulfilmentRow) => string }[] = [
  { header: "Order number", value: (row) => row.orderNumber },
  { header: "Paid (UTC)", value: (row) => row.paidAt.toISOString().slice(0, 16).replace("T", " ") },
  { header: "Line", value: (row) => String(row.lineId) },
  { header: "Product", value: (row) => row.productId },
  { header: "Product name", value: (row) => row.productName },
  { header: "Packs", value: (row) => String(row.packs) },
  { header: "Recipient", value: (row) => row.recipient },
  { header: "Address line 1", value: (row) => row.addressLine1 },
  { header: "Address line 2", value: (row) => row.addressLine2 },
  { header: "Postal code", value: (row) => row.postalCode },
  { header: "City", value: (row) => row.city },
  { header: "Country", value: (row) => row.country },
  { header: "Phone", value: (row) => row.phone },
  { header: "E-mail", value: (row) => row.email },
  { header: "Market", value: (row) => row.market },
  { header: "Test", value: (row) => (row.test ? "yes" : "no") },
];

export const fulfilmentCsvHeaders: readonly string[] = csvColumns.map((column) => column.header);

/**
 * The warehouse's CSV: RFC 4180 (CRLF, quoted where needed), UTF-8 with a byte order mark so that
 * Excel reads umlauts right, and every cell a spreadsheet would take for a formula (a buyer can type
 * `=HYPERLINK(...)` as a street) prefixed with an apostrophe.
 */
export function fulfilmentCsv(rows: readonly FulfilmentRow[]): string {
  return stringify(
    rows.map((row) => csvColumns.map((column) => column.value(row))),
    {
      bom: true,
      header: true,
      columns: [...fulfilmentCsvHeaders],
      record_delimiter: "windows",
      // Naming the record delimiter would otherwise leave a lone LF or CR in a cell unquoted.
      quote_record_delimiter: true,
      escape_formulas: true,
    },
  );
}

export type FulfilmentRefusal =
  | "not_found"
  | "already_fulfilled"
  /** Refunded, withdrawn, cancelled or never paid: nothing of it goes out. */
  | "not_shippable"
  /** An upsell may still add a line: it ships with the rest once the funnel has ended. */
  | "funnel_open"
  /** The buyer's address was erased on request. */
  | "erased"
  /** A dispute of its payment is open, or was lost: it ships, if at all, once a dispute closes in the store's favour. */
  | "disputed"
  /** No physical line left to ship (digital items only, or every pack refunded). */
  | "nothing_to_ship";

/** Statuses of a fulfilled order whose goods may still go out (a later parcel of the same order). */
const owedStatuses: readonly OrderStatus[] = ["paid", "fulfilled", "partially_refunded"];

/** Whether a dispute of the order's payment is open, or was lost. */
async function disputed(tx: Transaction, order: Order): Promise<boolean> {
  const [held] = await tx.select({ held: sql<boolean>`${orderDisputed}` }).from(orders).where(eq(orders.id, order.id));
  return Boolean(held?.held);
}

/**
 * Why an order fulfilled already may take no further parcel, or null: it was refunded, withdrawn or
 * cancelled, every physical line of it is given back, or its payment is disputed (open or lost, as
 * for a first parcel: the money may be or is gone). Its buyer is owed no goods, so no parcel is
 * recorded and no shipping e-mail sent.
 */
export async function noGoodsOwed(tx: Transaction, order: Order): Promise<FulfilmentRefusal | null> {
  if (order.erasedAt) return "erased";
  if (!owedStatuses.includes(order.status)) return "not_shippable";
  if (await disputed(tx, order)) return "disputed";
  const [{ lines } = { lines: 0 }] = await tx
    .select({ lines: sql<number>`count(*)::int` })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, order.id), eq(orderLines.kind, "supplement"), not(lineRefunded)));
  return lines === 0 ? "nothing_to_ship" : null;
}

/**
 * Fulfils an order the caller holds locked (`FOR UPDATE`) in its transaction, or says why not: its
 * fulfilment time, status or event, the audit row, and the review invitation `reviewDelayDays` later.
 * The lock makes two operators marking the same order at once fulfil it once. A `partially_refunded`
 * order keeps its status (a move to `fulfilled` would hide the refund) and gets its fulfilment time
 * and event all the same.
 */
export async function fulfilLocked(tx: Transaction, operator: Operator, order: Order, { reviewDelayDays }: { reviewDelayDays: number }): Promise<FulfilmentRefusal | null> {
  if (order.fulfilledAt || order.status === "fulfilled") return "already_fulfilled";
  if (order.erasedAt) return "erased";
  if (!(shippableStatuses as readonly OrderStatus[]).includes(order.status)) return "not_shippable";
  if (!order.funnelEndedAt) return "funnel_open";
  if (await disputed(tx, order)) return "disputed";
  const [{ lines } = { lines: 0 }] = await tx
    .select({ lines: sql<number>`count(*)::int` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(orderLines.orderId, order.id), waitingToShip()));
  if (lines === 0) return "nothing_to_ship";
  const [stamped] = await tx.update(orders).set({ fulfilledAt: new Date() }).where(eq(orders.id, order.id)).returning();
  if (!stamped) throw new Error(`Order ${order.id} vanished while locked`);
  if (order.status === "paid") await changeStatus(tx, stamped, "fulfilled", "fulfilled", { lines });
  else await recordEvent(tx, order.id, "fulfilled", { lines, status: order.status });
  await recordAudit(tx, operator, "order_fulfilled", { orderId: order.id, detail: { lines } });
  // The buyer is asked for a review once the parcel has had time to arrive and be tried.
  await inviteReviews(tx, stamped, "supplement", new Date(Date.now() + reviewDelayDays * 24 * 60 * 60 * 1000));
  return null;
}
