import { eraseClickId, touchOfOrder } from "../attribution/touches.server";
import type { Touch } from "../attribution/touch";
import { and, asc, eq, inArray, or, sql, type AnyColumn } from "drizzle-orm";
import type { Database, Queryable } from "../db/database.server";
import { feedback, orderEvents, orderLines, orders, payments, refundRequests, refunds, withdrawals } from "../orders/schema";
import { outbox } from "../mail/schema";
import { reviews } from "../reviews/schema";
import { recordAudit, type Operator } from "../operators/audit.server";
import { forgetOrderConversions, keptForOrders } from "../conversions/record.server";
import type { OrderConversion } from "../conversions/schema";

/**
 * A customer's rights over the data the store keeps about an e-mail address (GDPR Art. 15 and 17,
 * docs/architecture.md, 'What the back office does'): everything stored, as one JSON document, and its erasure. Erasure anonymises the
 * personal fields and keeps what the accounts must keep (amounts, VAT, lines, numbers, statuses).
 * An address is matched without regard to case, as the storefront matches it.
 */

const normalized = (email: string) => email.trim().toLowerCase();
const sameAddress = (column: AnyColumn, email: string) => sql`lower(${column}) = ${email}`;
const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** What an erased order's e-mail becomes: never deliverable (RFC 2606), still telling which order it was. */
export const erasedOrderEmail = (orderNumber: string) => `erased+${orderNumber.toLowerCase()}@invalid`;
export const erasedEmail = "erased@invalid";
export const erasedName = { givenName: "—", familyName: "Erased" } as const;

const explanations = {
  orders: "Orders placed with this address: the contact and delivery details given at checkout, the amounts, and for each order where the visit came from (the ad, campaign or site), its lines, payments (no payment credentials: those stay with the payment provider), refunds, the reviews written for it and the log of what happened to it; with the buyer's consent to marketing, what was kept to report the purchase to the ad platforms (Meta, Google): the ad's click id, the analytics client id, and the client's address and user agent until the report was sent.",
  withdrawals: "Declarations of withdrawal from a contract sent with this address through the withdrawal function.",
  refundRequests: "Refund requests sent with this address through the refund form.",
  feedback: "Feedback sent with this address through the feedback form.",
  emails: "E-mails the store sent or was to send to this address: their kind, status and dates. The texts are made from the data above when sent and are not kept.",
} as const;

export interface CustomerDataExport {
  exportedAt: string;
  email: string;
  explanation: typeof explanations;
  orders: ExportedOrder[];
  withdrawals: { reference: string; name: string; email: string; orderNumber: string; locale: string; status: string; receivedAt: string }[];
  refundRequests: { orderNumber: string; email: string; reason: string; message: string; locale: string; status: string; createdAt: string }[];
  feedback: { rating: number; comment: string; email: string | null; locale: string; createdAt: string }[];
  emails: { kind: string; orderNumber: string | null; status: string; createdAt: string; sentAt: string | null }[];
}

export interface ExportedOrder {
  number: string;
  status: string;
  market: string;
  locale: string;
  currency: string;
  createdAt: string;
  paidAt: string | null;
  fulfilledAt: string | null;
  contact: { email: string; givenName: string; familyName: string; addressLine1: string; addressLine2: string; postalCode: string; city: string; country: string; phone: string };
  amounts: { itemsMinor: number; deliveryMinor: number; vatMinor: number; totalMinor: number };
  /** Where the visit that placed it came from (docs/decisions/0045-the-touch-of-a-visit.md), if kept. */
  touch: Touch | null;
  lines: { productId: string; productName: string; kind: string; units: number; grossMinor: number; vatRateBp: number; vatMinor: number; digitalConsentAt: string | null; createdAt: string }[];
  payments: { provider: string; method: string; purpose: string; status: string; amountMinor: number; currency: string; createdAt: string; updatedAt: string }[];
  refunds: { amountMinor: number; reason: string; status: string; createdAt: string }[];
  reviews: { productId: string; rating: number; text: string; displayName: string; language: string; status: string; createdAt: string }[];
  events: { type: string; fromStatus: string | null; toStatus: string | null; detail: Record<string, string | number | boolean | null>; createdAt: string }[];
  /** What was kept to report the purchase to the ad platforms, with the buyer's consent; null without it. */
  adPlatforms: { clickId: string | null; analyticsClientId: string; page: string; clientAddress: string | null; userAgent: string | null; clearedAt: string | null; recordedAt: string } | null;
}

interface Found {
  orderRows: (typeof orders.$inferSelect)[];
  orderIds: string[];
  withdrawalRows: (typeof withdrawals.$inferSelect)[];
  refundRequestRows: (typeof refundRequests.$inferSelect)[];
  feedbackRows: (typeof feedback.$inferSelect)[];
  mailRows: (typeof outbox.$inferSelect)[];
}

/**
 * Everything linked to an address: rows carrying it, and rows linked to one of its orders (a
 * withdrawal or request matched to an order, the order's e-mails). `lock` reads the rows for update.
 */
async function findByAddress(db: Queryable, email: string, lock: boolean): Promise<Found> {
  const linkedTo = (column: AnyColumn, ids: string[]) => (ids.length > 0 ? inArray(column, ids) : undefined);
  const ordersQuery = db.select().from(orders).where(sameAddress(orders.email, email)).orderBy(asc(orders.createdAt), asc(orders.number));
  const orderRows = lock ? await ordersQuery.for("update") : await ordersQuery;
  const orderIds = orderRows.map((order) => order.id);
  const withdrawalsQuery = db
    .select()
    .from(withdrawals)
    .where(or(sameAddress(withdrawals.email, email), linkedTo(withdrawals.orderId, orderIds)))
    .orderBy(asc(withdrawals.receivedAt));
  const refundRequestsQuery = db
    .select()
    .from(refundRequests)
    .where(or(sameAddress(refundRequests.email, email), linkedTo(refundRequests.orderId, orderIds)))
    .orderBy(asc(refundRequests.createdAt));
  const feedbackQuery = db.select().from(feedback).where(sameAddress(feedback.email, email)).orderBy(asc(feedback.createdAt));
  const mailQuery = db
    .select()
    .from(outbox)
    .where(or(sameAddress(outbox.recipient, email), linkedTo(outbox.orderId, orderIds)))
    .orderBy(asc(outbox.id));
  return {
    orderRows,
    orderIds,
    withdrawalRows: lock ? await withdrawalsQuery.for("update") : await withdrawalsQuery,
    refundRequestRows: lock ? await refundRequestsQuery.for("update") : await refundRequestsQuery,
    feedbackRows: lock ? await feedbackQuery.for("update") : await feedbackQuery,
    mailRows: lock ? await mailQuery.for("update") : await mailQuery,
  };
}

const nothingFound = (found: Found) =>
  found.orderRows.length + found.withdrawalRows.length + found.refundRequestRows.length + found.feedbackRows.length + found.mailRows.length === 0;

function adPlatformsOf(kept: OrderConversion | undefined): ExportedOrder["adPlatforms"] {
  if (!kept) return null;
  return {
    clickId: kept.fbc,
    analyticsClientId: kept.gaClientId,
    page: kept.eventSourceUrl,
    clientAddress: kept.clientAddress,
    userAgent: kept.clientUserAgent,
    clearedAt: iso(kept.deviceDataClearedAt),
    recordedAt: kept.createdAt.toISOString(),
  };
}

/** Everything stored about an address (GDPR Art. 15), or null when nothing is. */
export async function exportCustomerData(db: Database, email: string): Promise<CustomerDataExport | null> {
  const address = normalized(email);
  if (!address) return null;
  const found = await findByAddress(db, address, false);
  if (nothingFound(found)) return null;
  const { orderIds } = found;
  const conversionRows = await keptForOrders(db, orderIds);
  const [lineRows, paymentRows, refundRows, eventRows, reviewRows] =
    orderIds.length === 0
      ? [[], [], [], [], []]
      : await Promise.all([
          db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(asc(orderLines.id)),
          db.select().from(payments).where(inArray(payments.orderId, orderIds)).orderBy(asc(payments.createdAt)),
          db.select().from(refunds).where(inArray(refunds.orderId, orderIds)).orderBy(asc(refunds.createdAt)),
          db.select().from(orderEvents).where(inArray(orderEvents.orderId, orderIds)).orderBy(asc(orderEvents.id)),
          db.select().from(reviews).where(inArray(reviews.orderId, orderIds)).orderBy(asc(reviews.createdAt)),
        ]);
  const numberOf = new Map(found.orderRows.map((order) => [order.id, order.number]));
  const touches = new Map(await Promise.all(orderIds.map(async (id) => [id, await touchOfOrder(db, id)] as const)));
  return {
    exportedAt: new Date().toISOString(),
    email: email.trim(),
    explanation: explanations,
    orders: found.orderRows.map((order) => ({
      number: order.number,
      status: order.status,
      market: order.market,
      locale: order.locale,
      currency: order.currency,
      createdAt: order.createdAt.toISOString(),
      paidAt: iso(order.paidAt),
      fulfilledAt: iso(order.fulfilledAt),
      contact: {
        email: order.email,
        givenName: order.givenName,
        familyName: order.familyName,
        addressLine1: order.addressLine1,
        addressLine2: order.addressLine2,
        postalCode: order.postalCode,
        city: order.city,
        country: order.country,
        phone: order.phone,
      },
      amounts: { itemsMinor: order.itemsMinor, deliveryMinor: order.deliveryMinor, vatMinor: order.vatMinor, totalMinor: order.totalMinor },
      touch: touches.get(order.id) ?? null,
      lines: lineRows
        .filter((line) => line.orderId === order.id)
        .map((line) => ({
          productId: line.productId,
          productName: line.productName,
          kind: line.kind,
          units: line.units,
          grossMinor: line.grossMinor,
          vatRateBp: line.vatRateBp,
          vatMinor: line.vatMinor,
          digitalConsentAt: iso(line.digitalConsentAt),
          createdAt: line.createdAt.toISOString(),
        })),
      // Provider references, saved-method tokens and idempotency keys stay out: they are keys to
      // the provider's records, not information about the person.
      payments: paymentRows
        .filter((payment) => payment.orderId === order.id)
        .map((payment) => ({
          provider: payment.provider,
          method: payment.method,
          purpose: payment.purpose,
          status: payment.status,
          amountMinor: payment.amountMinor,
          currency: payment.currency,
          createdAt: payment.createdAt.toISOString(),
          updatedAt: payment.updatedAt.toISOString(),
        })),
      refunds: refundRows
        .filter((refund) => refund.orderId === order.id)
        .map((refund) => ({ amountMinor: refund.amountMinor, reason: refund.reason, status: refund.status, createdAt: refund.createdAt.toISOString() })),
      reviews: reviewRows
        .filter((review) => review.orderId === order.id)
        .map((review) => ({
          productId: review.productId,
          rating: review.rating,
          text: review.body,
          displayName: review.displayName,
          language: review.language,
          status: review.status,
          createdAt: review.createdAt.toISOString(),
        })),
      events: eventRows
        .filter((event) => event.orderId === order.id)
        .map((event) => ({ type: event.type, fromStatus: event.fromStatus, toStatus: event.toStatus, detail: event.detail, createdAt: event.createdAt.toISOString() })),
      adPlatforms: adPlatformsOf(conversionRows.find((row) => row.orderId === order.id)),
    })),
    withdrawals: found.withdrawalRows.map((row) => ({
      reference: row.reference,
      name: row.name,
      email: row.email,
      orderNumber: row.orderNumber,
      locale: row.locale,
      status: row.status,
      receivedAt: row.receivedAt.toISOString(),
    })),
    refundRequests: found.refundRequestRows.map((row) => ({
      orderNumber: row.orderNumber,
      email: row.email,
      reason: row.reason,
      message: row.message,
      locale: row.locale,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
    })),
    feedback: found.feedbackRows.map((row) => ({ rating: row.rating, comment: row.comment, email: row.email, locale: row.locale, createdAt: row.createdAt.toISOString() })),
    emails: found.mailRows.map((row) => ({
      kind: row.kind,
      orderNumber: row.orderId ? (numberOf.get(row.orderId) ?? null) : null,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      sentAt: iso(row.sentAt),
    })),
  };
}

export interface ErasureCounts {
  orders: number;
  withdrawals: number;
  refundRequests: number;
  feedback: number;
  /** E-mails to the address, anonymised. */
  emails: number;
  /** Of those, the ones still waiting to be sent: cancelled, so nothing goes out afterwards. */
  emailsCancelled: number;
  /** Reviews written for the orders: deleted, published or not (the buyer's words and name). */
  reviews: number;
}

export type ErasureResult = { kind: "unknown" } | { kind: "erased"; counts: ErasureCounts };

/** Why a cancelled e-mail was never sent, as the outbox page shows it. */
export const erasedMailError = "Cancelled: the recipient's data was erased";

/**
 * Anonymises everything stored about an address (GDPR Art. 17) in one transaction: the orders'
 * personal fields (amounts, VAT, lines, numbers, statuses and the delivery country stay for the
 * accounts), what their payment attempts kept to replay a call, withdrawals, refund requests,
 * feedback and e-mails; e-mails not yet sent are cancelled, the orders' reviews deleted, and so is
 * what was kept to report them to the ad platforms (a report not yet sent is then dropped).
 * The audit log records each erased order and a summary, never the address.
 */
export async function eraseCustomerData(db: Database, operator: Operator, email: string): Promise<ErasureResult> {
  const address = normalized(email);
  if (!address) return { kind: "unknown" };
  return db.transaction(async (tx) => {
    const found = await findByAddress(tx, address, true);
    if (nothingFound(found)) return { kind: "unknown" } as const;
    const now = new Date();

    for (const order of found.orderRows) {
      await tx
        .update(orders)
        .set({
          email: erasedOrderEmail(order.number),
          ...erasedName,
          addressLine1: "",
          addressLine2: "",
          postalCode: "",
          city: "",
          phone: "",
          erasedAt: now,
        })
        .where(eq(orders.id, order.id));
      // An attempt's kept request names the buyer (e-mail, name, country).
      await tx.update(payments).set({ providerRequest: null }).where(eq(payments.orderId, order.id));
      await eraseClickId(tx, order.id);
      await recordAudit(tx, operator, "customer_erased", { orderId: order.id, detail: { number: order.number } });
    }

    for (const row of found.withdrawalRows) {
      await tx
        .update(withdrawals)
        .set({ name: erasedName.familyName, email: `erased+${row.reference.toLowerCase()}@invalid` })
        .where(eq(withdrawals.id, row.id));
    }
    if (found.refundRequestRows.length > 0) {
      await tx
        .update(refundRequests)
        .set({ email: erasedEmail, message: "" })
        .where(inArray(refundRequests.id, found.refundRequestRows.map((row) => row.id)));
    }
    if (found.feedbackRows.length > 0) {
      await tx
        .update(feedback)
        .set({ email: null, comment: "" })
        .where(inArray(feedback.id, found.feedbackRows.map((row) => row.id)));
    }

    const pendingMail = found.mailRows.filter((row) => row.status === "pending").map((row) => row.id);
    const mailIds = found.mailRows.map((row) => row.id);
    if (mailIds.length > 0) await tx.update(outbox).set({ recipient: erasedEmail, payload: {} }).where(inArray(outbox.id, mailIds));
    if (pendingMail.length > 0) {
      await tx
        .update(outbox)
        .set({ status: "failed", lockedUntil: null, lastError: erasedMailError })
        .where(and(inArray(outbox.id, pendingMail), eq(outbox.status, "pending")));
    }

    await forgetOrderConversions(tx, found.orderIds);
    const removedReviews = found.orderIds.length > 0 ? await tx.delete(reviews).where(inArray(reviews.orderId, found.orderIds)).returning({ id: reviews.id }) : [];

    const counts: ErasureCounts = {
      orders: found.orderRows.length,
      withdrawals: found.withdrawalRows.length,
      refundRequests: found.refundRequestRows.length,
      feedback: found.feedbackRows.length,
      emails: mailIds.length,
      emailsCancelled: pendingMail.length,
      reviews: removedReviews.length,
    };
    await recordAudit(tx, operator, "customer_erased", { detail: { ...counts } });
    return { kind: "erased", counts } as const;
  });
}
