import { eq } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { enqueueMail, type Delivery, type OutboxRow } from "../mail/outbox.server";
import { outbox } from "../mail/schema";
import { linesOf, orderById, type Order } from "../orders/order-records.server";
import type { ConversionSettings, Ga4Settings, MetaSettings } from "./conversion-settings";
import { metaGraphApiVersion } from "./conversion-settings";
import { ga4PurchaseBody, ga4RefundBody, metaEventsBody, metaPurchaseEvent, metaTestEventCode, type PurchaseFacts } from "./payloads";
import { clearDeviceData, clearStaleDeviceData } from "./record.server";
import { orderConversions } from "./schema";

/**
 * Purchases and refunds reported to the ad platforms through the outbox, so that each is retried
 * until it arrives and sent once (docs/decisions/0046-server-side-conversions.md). A message names
 * its order in its payload and holds nothing else: what is sent is read from the order when it goes.
 */

export const conversionKinds = {
  metaPurchase: "conversion-meta-purchase",
  ga4Purchase: "conversion-ga4-purchase",
  ga4Refund: "conversion-ga4-refund",
} as const;

type ConversionKind = (typeof conversionKinds)[keyof typeof conversionKinds];

/** The platform a message goes to, kept where an e-mail keeps its recipient. */
const platformOf: Record<ConversionKind, string> = {
  [conversionKinds.metaPurchase]: "Meta Conversions API",
  [conversionKinds.ga4Purchase]: "GA4 Measurement Protocol",
  [conversionKinds.ga4Refund]: "GA4 Measurement Protocol",
};

export function isConversionMessage(row: OutboxRow): boolean {
  return (Object.values(conversionKinds) as string[]).includes(row.kind);
}

async function enqueueConversion(db: Database, kind: ConversionKind, orderId: string, locale: string, sendAfter?: Date): Promise<void> {
  // The order is named in the payload, not linked as its e-mails are, so the back office's list of
  // an order's e-mails stays as it was.
  await enqueueMail(db, { kind, dedupeKey: `${kind}:${orderId}`, recipient: platformOf[kind], locale, payload: { orderId }, sendAfter });
}

/** An order's money undone before its funnel ended: there is no purchase left to report. */
const undoneStatuses: ReadonlySet<string> = new Set(["refunded", "cancelled", "withdrawn"]);

function reportable(order: Order | undefined): order is Order & { paidAt: Date } {
  return Boolean(order?.paidAt);
}

/**
 * A test-mode order took no real money, so it goes only to each platform's test facility, where it
 * is shown and counted nowhere: Meta's Test Events (with a test event code) and GA4's validation
 * server. An operator sees the reports work before going live; the ad platforms learn nothing false.
 */
const ga4PathFor = (order: Pick<Order, "test">) => (order.test ? "/debug/mp/collect" : "/mp/collect");
const metaTestCodeFor = (order: Pick<Order, "test">) => (order.test ? metaTestEventCode : undefined);

/** GA4's validation server answers 200 with what it found wrong: for a test order, that is its failure. */
async function ga4Failure(order: Pick<Order, "test">, response: Response): Promise<Error | null> {
  if (!response.ok) return failure("GA4", response);
  if (!order.test) return null;
  const answer = (await response.json().catch(() => ({}))) as { validationMessages?: { description?: string }[] };
  const first = answer.validationMessages?.[0];
  return first ? new Error(`GA4's validation server refused the event: ${String(first.description ?? "no description").slice(0, 200)}`) : null;
}

/**
 * The order's funnel has ended (its confirmation is going out: upsells and add-on are final). With
 * the buyer's consent recorded at the checkout, each configured platform's purchase is queued.
 */
export async function queueConversions(db: Database, orderId: string, settings: ConversionSettings): Promise<void> {
  await clearStaleDeviceData(db);
  const [consent] = await db.select({ orderId: orderConversions.orderId }).from(orderConversions).where(eq(orderConversions.orderId, orderId));
  const order = consent ? await orderById(db, orderId) : undefined;
  if (!reportable(order) || undoneStatuses.has(order.status)) {
    if (consent) await clearDeviceData(db, orderId);
    return;
  }
  if (settings.meta) await enqueueConversion(db, conversionKinds.metaPurchase, orderId, order.locale);
  // Only Meta takes the address and user agent: without it they have no use from now on.
  else await clearDeviceData(db, orderId);
  if (settings.ga4) await enqueueConversion(db, conversionKinds.ga4Purchase, orderId, order.locale);
}

function ga4PurchaseMessage(db: Database, orderId: string) {
  return db
    .select({ locale: outbox.locale, status: outbox.status, sendAfter: outbox.sendAfter })
    .from(outbox)
    .where(eq(outbox.dedupeKey, `${conversionKinds.ga4Purchase}:${orderId}`));
}

/**
 * A full refund: GA4 is told of an order whose purchase it was told of, or is still to be told of.
 * The refund is not due before the purchase, and waits for it when it goes (see `deliverConversion`).
 */
export async function queueRefundConversion(db: Database, orderId: string, settings: ConversionSettings): Promise<void> {
  if (!settings.ga4) return;
  const [purchase] = await ga4PurchaseMessage(db, orderId);
  if (!purchase || purchase.status === "failed" || !reportable(await orderById(db, orderId))) return;
  const now = new Date();
  await enqueueConversion(db, conversionKinds.ga4Refund, orderId, purchase.locale, purchase.sendAfter > now ? purchase.sendAfter : now);
}

async function purchaseFacts(db: Database, orderId: string): Promise<(PurchaseFacts & { test: boolean }) | null> {
  const [order, [conversion]] = await Promise.all([orderById(db, orderId), db.select().from(orderConversions).where(eq(orderConversions.orderId, orderId))]);
  if (!reportable(order) || !conversion) return null;
  const lines = await linesOf(db, orderId);
  return {
    test: order.test,
    orderNumber: order.number,
    email: order.email,
    currency: order.currency,
    totalMinor: order.totalMinor,
    lines,
    paidAt: order.paidAt,
    eventSourceUrl: conversion.eventSourceUrl,
    fbc: conversion.fbc,
    clientAddress: conversion.clientAddress,
    clientUserAgent: conversion.clientUserAgent,
    gaClientId: conversion.gaClientId,
  };
}

export type Fetch = typeof fetch;

/** A platform's refusal or failure: the outbox tries again later. Its answer is cut short, never the payload. */
async function failure(platform: string, response: Response): Promise<Error> {
  const text = await response.text().catch(() => "");
  return new Error(`${platform} answered ${response.status}: ${text.slice(0, 200)}`);
}

export async function postToMeta(meta: MetaSettings, body: unknown, send: Fetch): Promise<Response> {
  return send(`${meta.apiUrl}/${metaGraphApiVersion}/${encodeURIComponent(meta.pixelId)}/events`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
}

export async function postToGa4(ga4: Ga4Settings, path: "/mp/collect" | "/debug/mp/collect", body: unknown, send: Fetch): Promise<Response> {
  const query = new URLSearchParams({ measurement_id: ga4.measurementId, api_secret: ga4.apiSecret });
  return send(`${ga4.apiUrl}${path}?${query.toString()}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
}

export interface ConversionContext {
  db: Database;
  settings: ConversionSettings;
  send?: Fetch;
}

/** Sends one conversion message of the outbox; throws for the outbox to retry. */
export async function deliverConversion(row: OutboxRow, { db, settings, send = fetch }: ConversionContext): Promise<Delivery> {
  const orderId = typeof row.payload.orderId === "string" ? row.payload.orderId : "";
  if (row.kind === conversionKinds.metaPurchase) {
    if (!settings.meta) {
      // Only Meta takes the address and user agent: without it they have no use from now on.
      await clearDeviceData(db, orderId);
      return { dropped: "Not sent: Meta's Conversions API is no longer configured" };
    }
    const facts = await purchaseFacts(db, orderId);
    if (!facts) return { dropped: "Not sent: the order or its consent is gone" };
    const response = await postToMeta(settings.meta, metaEventsBody([metaPurchaseEvent(facts)], settings.meta.accessToken, metaTestCodeFor(facts)), send);
    if (!response.ok) throw await failure("Meta", response);
    await clearDeviceData(db, orderId);
    return { sent: true };
  }
  if (!settings.ga4) return { dropped: "Not sent: GA4's Measurement Protocol is no longer configured" };
  if (row.kind === conversionKinds.ga4Purchase) {
    const facts = await purchaseFacts(db, orderId);
    if (!facts) return { dropped: "Not sent: the order or its consent is gone" };
    const response = await postToGa4(settings.ga4, ga4PathFor(facts), ga4PurchaseBody(facts), send);
    const refused = await ga4Failure(facts, response);
    if (refused) throw refused;
    return { sent: true };
  }
  const [order, [conversion], [purchase]] = await Promise.all([
    orderById(db, orderId),
    db.select().from(orderConversions).where(eq(orderConversions.orderId, orderId)),
    ga4PurchaseMessage(db, orderId),
  ]);
  if (!reportable(order) || !conversion) return { dropped: "Not sent: the order or its consent is gone" };
  // A refund never reaches GA4 before its purchase: while the purchase is being retried, so is the refund.
  if (purchase?.status === "pending") throw new Error("GA4's refund waits for its purchase, not sent yet");
  if (purchase?.status !== "sent") return { dropped: "Not sent: GA4 was never told of its purchase" };
  const response = await postToGa4(settings.ga4, ga4PathFor(order), ga4RefundBody({ orderNumber: order.number, currency: order.currency, refundedMinor: order.totalMinor, gaClientId: conversion.gaClientId }), send);
  const refused = await ga4Failure(order, response);
  if (refused) throw refused;
  return { sent: true };
}

/**
 * The conversions' part of the outbox worker. A conversion message is sent here. An order's
 * confirmation goes out once its funnel has ended (thank-you page reached, last upsell answered, or
 * its wait for upsells over): its lines are final, so its purchase is queued as it goes; a refund
 * e-mail of a full refund queues GA4's refund. Null for a message that is an e-mail to send.
 */
export async function conversionsAtOutbox(row: OutboxRow, context: ConversionContext): Promise<Delivery | null> {
  if (isConversionMessage(row)) return deliverConversion(row, context);
  if (row.kind === "order-confirmation" && row.orderId) await queueConversions(context.db, row.orderId, context.settings);
  if (row.kind === "refund" && row.orderId && row.payload.fullyRefunded === true) await queueRefundConversion(context.db, row.orderId, context.settings);
  return null;
}
