import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startFakeGa4, type FakeGa4 } from "../../tests/fakes/ga4-measurement-protocol";
import { startFakeMetaConversions, type FakeMetaConversions } from "../../tests/fakes/meta-conversions-api";
import { startOutboxWorker, type Delivery, type OutboxRow } from "../mail/outbox.server";
import { outbox } from "../mail/schema";
import { orderById } from "../orders/order-records.server";
import { orders } from "../orders/schema";
import { paidTestOrder } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import type { Database } from "../db/database.server";
import type { ConversionSettings } from "./conversion-settings";
import { conversionKinds, conversionsAtOutbox } from "./conversions.server";
import { hashedEmail, metaTestEventCode } from "./payloads";
import { clearStaleDeviceData, forgetOrderConversions, recordConversionConsent, startDeviceDataSweep, type ConversionRequest } from "./record.server";
import { orderConversions } from "./schema";

const pixel = { pixelId: "1234567890", accessToken: "EAAB-store-token" };
const stream = { measurementId: "G-STORE123", apiSecret: "store-secret" };

let meta: FakeMetaConversions;
let ga4: FakeGa4;
beforeAll(async () => {
  [meta, ga4] = await Promise.all([startFakeMetaConversions(pixel), startFakeGa4(stream)]);
});
afterAll(() => Promise.all([meta.close(), ga4.close()]));
beforeEach(() => {
  meta.events.length = 0;
  meta.testEvents.length = 0;
  meta.refusals.length = 0;
  ga4.events.length = 0;
  ga4.refused.length = 0;
  ga4.validated.length = 0;
});

const configured = (): ConversionSettings => ({ meta: { ...pixel, apiUrl: meta.url }, ga4: { ...stream, apiUrl: ga4.url } });
const unconfigured: ConversionSettings = { meta: null, ga4: null };

const fromAnAd: ConversionRequest = {
  fbclid: "IwAR2F4-dbP0l7Mn1IawQQ",
  fbcCookie: null,
  gaCookie: "GA1.1.424242.1795770000",
  clientAddress: "203.0.113.7",
  userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
  pageUrl: "https://shop.example.test/checkout/de",
};

/**
 * The outbox as the running store drives it: conversion messages sent here, the others taken for
 * e-mails (sent at once); a round is one pass over what is due.
 */
function worker(db: Database, settings: ConversionSettings) {
  const mailed: string[] = [];
  const outboxWorker = startOutboxWorker(
    db,
    async (row: OutboxRow): Promise<Delivery> => {
      const conversion = await conversionsAtOutbox(row, { db, settings });
      if (conversion) return conversion;
      mailed.push(row.kind);
      return { sent: true };
    },
    60_000,
  );
  return { mailed, runOnce: () => outboxWorker.runOnce(), stop: () => outboxWorker.stop() };
}

/** Makes every pending message of the order due now, as the end of its funnel does for its confirmation. */
async function dueNow(db: Database): Promise<void> {
  await db.update(outbox).set({ sendAfter: new Date(Date.now() - 1000) }).where(eq(outbox.status, "pending"));
}

/** A paid order of a store in live mode: a test-mode order goes to the platforms' test facilities only. */
const liveOrder = (db: Database) => paidTestOrder(db, { endFunnel: false, test: false });

async function sendEverything(db: Database, settings: ConversionSettings): Promise<void> {
  const outboxWorker = worker(db, settings);
  for (let round = 0; round < 4; round += 1) {
    await dueNow(db);
    await outboxWorker.runOnce();
  }
  await outboxWorker.stop();
}

/** The refund e-mail of a full refund, as the refund service queues it. */
function fullRefundMail(order: { id: string; email: string }) {
  return { kind: "refund", dedupeKey: `refund:test-${order.id}`, orderId: order.id, recipient: order.email, locale: "de_DE", payload: { fullyRefunded: true } };
}

describe.each(databaseKinds)("server-side conversions on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("sends one Purchase to each platform when the funnel ends, upsells included, and then forgets the device", async () => {
    const { db } = database;
    const paid = await paidTestOrder(db, { contact: { email: " Buyer.One@Example.com" }, upsells: ["ebook-1"], endFunnel: false, test: false });
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    await sendEverything(db, configured());

    expect(meta.refusals).toEqual([]);
    expect(meta.events).toHaveLength(1);
    const order = await orderById(db, paid.order.id);
    const [purchase] = meta.events;
    expect(purchase?.event).toMatchObject({
      event_name: "Purchase",
      event_id: paid.order.number,
      action_source: "website",
      event_source_url: "https://shop.example.test/checkout/de",
      user_data: { em: [hashedEmail("buyer.one@example.com")], client_ip_address: "203.0.113.7", client_user_agent: "Mozilla/5.0 (X11; Linux x86_64)" },
      custom_data: { value: (order?.totalMinor ?? 0) / 100, currency: "EUR" },
    });
    expect((purchase?.event.user_data as { fbc: string }).fbc).toMatch(/^fb\.1\.\d{13}\.IwAR2F4-dbP0l7Mn1IawQQ$/);
    expect(purchase?.rawBody).not.toContain("@");

    expect(ga4.refused).toEqual([]);
    expect(ga4.events.map((event) => [event.name, event.clientId, event.params.transaction_id, event.params.value, event.params.currency])).toEqual([
      ["purchase", "424242.1795770000", paid.order.number, (order?.totalMinor ?? 0) / 100, "EUR"],
    ]);
    expect((ga4.events[0]?.params.items as unknown[]).length).toBe(2);

    const [kept] = await db.select().from(orderConversions).where(eq(orderConversions.orderId, paid.order.id));
    expect(kept).toMatchObject({ clientAddress: null, clientUserAgent: null });
    expect(kept?.deviceDataClearedAt).toBeInstanceOf(Date);
  });

  it("tries again after a platform's 5xx and sends once, however often the outbox runs", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    meta.failNext(1);
    ga4.failNext(1);
    await sendEverything(db, configured());
    await sendEverything(db, configured());

    expect(meta.events.map((event) => event.event.event_id)).toEqual([paid.order.number]);
    expect(ga4.events.map((event) => event.params.transaction_id)).toEqual([paid.order.number]);
    const rows = await db.select().from(outbox).where(eq(outbox.kind, conversionKinds.metaPurchase));
    const mine = rows.filter((row) => row.payload.orderId === paid.order.id);
    expect(mine.map((row) => [row.status, row.attempts])).toEqual([["sent", 2]]);
    expect(mine[0]?.orderId).toBeNull();
  });

  it("sends nothing for a buyer who gave no consent", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await sendEverything(db, configured());
    expect(meta.events.filter((event) => event.event.event_id === paid.order.number)).toEqual([]);
    expect(ga4.events.filter((event) => event.params.transaction_id === paid.order.number)).toEqual([]);
  });

  it("sends nothing without the platforms' settings, and keeps no address or user agent", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    await sendEverything(db, unconfigured);
    expect(meta.events).toEqual([]);
    expect(ga4.events).toEqual([]);
    const queued = await db.select().from(outbox);
    expect(queued.filter((row) => row.payload.orderId === paid.order.id)).toEqual([]);
    const [kept] = await db.select().from(orderConversions).where(eq(orderConversions.orderId, paid.order.id));
    expect(kept).toMatchObject({ clientAddress: null, clientUserAgent: null });
  });

  it("sends nothing for an order that was never paid", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    await db.update(orders).set({ paidAt: null }).where(eq(orders.id, paid.order.id));
    await sendEverything(db, configured());
    expect(meta.events).toEqual([]);
    expect(ga4.events).toEqual([]);
  });

  it("tells GA4 of a full refund once, after its purchase", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    await sendEverything(db, configured());
    await db.insert(outbox).values(fullRefundMail(paid.order));
    await sendEverything(db, configured());
    await sendEverything(db, configured());
    expect(ga4.events.map((event) => [event.name, event.params.transaction_id, event.params.value])).toEqual([
      ["purchase", paid.order.number, paid.order.totalMinor / 100],
      ["refund", paid.order.number, paid.order.totalMinor / 100],
    ]);
  });

  it("keeps the first record when the same form is sent again", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    await recordConversionConsent(db, paid.order.id, { ...fromAnAd, fbclid: null, clientAddress: "198.51.100.1" });
    const kept = await db.select().from(orderConversions).where(eq(orderConversions.orderId, paid.order.id));
    expect(kept.map((row) => [row.clientAddress, row.fbc?.endsWith(".IwAR2F4-dbP0l7Mn1IawQQ")])).toEqual([["203.0.113.7", true]]);
  });

  it("drops a purchase not yet sent once the buyer's data was erased", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    const outboxWorker = worker(db, configured());
    await dueNow(db);
    // The confirmation's round queues the conversions; the buyer is erased before they go.
    await outboxWorker.runOnce();
    await forgetOrderConversions(db, [paid.order.id]);
    await dueNow(db);
    await outboxWorker.runOnce();
    await outboxWorker.stop();
    expect(meta.events.filter((event) => event.event.event_id === paid.order.number)).toEqual([]);
    expect(ga4.events.filter((event) => event.params.transaction_id === paid.order.number)).toEqual([]);
    const dropped = (await db.select().from(outbox)).filter((row) => row.payload.orderId === paid.order.id);
    expect(dropped.map((row) => row.status)).toEqual(["failed", "failed"]);
  });
  it("reports a test-mode order only to the platforms' test facilities, its refund too", async () => {
    const { db } = database;
    const paid = await paidTestOrder(db, { endFunnel: false, test: true });
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    await sendEverything(db, configured());
    await db.insert(outbox).values(fullRefundMail(paid.order));
    await sendEverything(db, configured());
    // Nothing reaches what the platforms count: Meta shows it under Test events, GA4 only validates it.
    expect(meta.events).toEqual([]);
    expect(ga4.events).toEqual([]);
    expect(meta.testEvents.map(({ testEventCode, event }) => [testEventCode, event.event_name, event.event_id])).toEqual([[metaTestEventCode, "Purchase", paid.order.number]]);
    expect(ga4.validated.map((body) => (body as { events: { name: string; params: { transaction_id: string } }[] }).events.map((event) => [event.name, event.params.transaction_id]))).toEqual([
      [["purchase", paid.order.number]],
      [["refund", paid.order.number]],
    ]);
    const [kept] = await db.select().from(orderConversions).where(eq(orderConversions.orderId, paid.order.id));
    expect(kept).toMatchObject({ clientAddress: null, clientUserAgent: null });
  });

  it("reports no purchase of an order refunded before its funnel ended", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    await db.update(orders).set({ status: "refunded" }).where(eq(orders.id, paid.order.id));
    await sendEverything(db, configured());
    expect(meta.events).toEqual([]);
    expect(ga4.events).toEqual([]);
  });

  it("sends a refund only after its purchase went out, however long the purchase was retried", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    // GA4 refuses the purchase at first; the refund e-mail comes while the purchase waits for its retry.
    ga4.failNext(1);
    const outboxWorker = worker(db, configured());
    await dueNow(db);
    await outboxWorker.runOnce();
    await dueNow(db);
    await outboxWorker.runOnce();
    await db.insert(outbox).values(fullRefundMail(paid.order));
    await outboxWorker.runOnce();
    // Even made due before its purchase, the refund does not go ahead of it.
    await db.update(outbox).set({ sendAfter: new Date(Date.now() - 1000) }).where(eq(outbox.kind, conversionKinds.ga4Refund));
    await outboxWorker.runOnce();
    await outboxWorker.stop();
    expect(ga4.events).toEqual([]);
    await sendEverything(db, configured());
    expect(ga4.events.map((event) => [event.name, event.params.transaction_id])).toEqual([
      ["purchase", paid.order.number],
      ["refund", paid.order.number],
    ]);
  });

  it("forgets the address and user agent when Meta's settings are removed before its purchase goes", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    // The confirmation's round queues the purchases; Meta is switched off before they are sent.
    const outboxWorker = worker(db, configured());
    await dueNow(db);
    await outboxWorker.runOnce();
    await outboxWorker.stop();
    await sendEverything(db, { ...configured(), meta: null });
    expect(meta.events).toEqual([]);
    const [kept] = await db.select().from(orderConversions).where(eq(orderConversions.orderId, paid.order.id));
    expect(kept).toMatchObject({ clientAddress: null, clientUserAgent: null });
    expect(kept?.deviceDataClearedAt).toBeInstanceOf(Date);
  });

  it("clears device data kept more than seven days on its own timer, with no order coming in", async () => {
    const { db } = database;
    const paid = await liveOrder(db);
    await recordConversionConsent(db, paid.order.id, fromAnAd);
    await db.update(orderConversions).set({ createdAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) }).where(eq(orderConversions.orderId, paid.order.id));
    const stop = startDeviceDataSweep(db, 60_000);
    try {
      await vi.waitFor(async () => {
        const [kept] = await db.select().from(orderConversions).where(eq(orderConversions.orderId, paid.order.id));
        expect(kept).toMatchObject({ clientAddress: null, clientUserAgent: null });
      });
    } finally {
      stop();
    }
  });

  it("finds the device data to clear through an index of the rows not cleared yet", async () => {
    const { db } = database;
    await clearStaleDeviceData(db);
    const result = (await db.execute(sql`select indexdef from pg_indexes where tablename = 'order_conversions'`)) as unknown as { rows: { indexdef: string }[] };
    expect(result.rows.some((row) => /\(created_at\) WHERE \(device_data_cleared_at IS NULL\)/.test(row.indexdef))).toBe(true);
  });
});
