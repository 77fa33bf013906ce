import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { disputes, orderEvents, payments, refunds, webhookEvents } from "./schema";
import { outbox } from "../mail/schema";
import { WebhookRejected, type PaymentProvider, type VerifiedWebhook } from "../payments/provider";
import type { Database } from "../db/database.server";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder } from "../test-support/orders";
import { orderById } from "./order-records.server";
import { receiveWebhook } from "./payment-webhooks.server";
import { refundOrder } from "./refund-service.server";
import { beginUpsell } from "./upsell-service.server";
import { applyPaymentOutcome } from "./order-service.server";
import { testToday } from "../test-support/orders";

/** A provider whose webhooks are "signed" with a header, standing in for Stripe's and PayPal's checks. */
const provider: PaymentProvider = {
  id: "fake",
  startPayment: () => Promise.reject(new Error("not used")),
  retrievePayment: () => Promise.reject(new Error("not used")),
  cancelPayment: () => Promise.reject(new Error("not used")),
  chargeSavedMethod: () => Promise.reject(new Error("not used")),
  refund: () => Promise.reject(new Error("not used")),
  async verifyWebhook(headers: Headers, rawBody: string): Promise<VerifiedWebhook> {
    if (headers.get("x-signature") === "unreachable") throw new Error("verification API down");
    if (headers.get("x-signature") !== "valid") throw new WebhookRejected("bad signature");
    return JSON.parse(rawBody) as VerifiedWebhook;
  },
};

const signed = new Headers({ "x-signature": "valid" });
const send = (db: Database, webhook: VerifiedWebhook, headers = signed) => receiveWebhook(db, provider, headers, JSON.stringify(webhook));

describe.each(databaseKinds)("payment webhooks on %s", (kind) => {
  const database = useTestDatabase(kind);

  const refundMails = (orderId: string) =>
    database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.orderId, orderId), eq(outbox.kind, "refund")));

  /** An order waiting for the fake provider's payment `ref` (as after a redirect to its page). */
  async function orderPayingWith(ref: string): Promise<string> {
    const placed = await placeTestOrder(database.db, "fake");
    await database.db.update(payments).set({ providerRef: ref, status: "requires_action" }).where(eq(payments.id, placed.payment.id));
    return placed.order.id;
  }

  it("pays the order on a verified success, once however often it is delivered", async () => {
    const ref = `pi_${randomUUID()}`;
    const orderId = await orderPayingWith(ref);
    const webhook: VerifiedWebhook = { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: ref, reusableMethodRef: "cus_1/pm_1" } };
    expect(await Promise.all([send(database.db, webhook), send(database.db, webhook)])).toEqual([200, 200]);
    expect(await send(database.db, webhook)).toBe(200);
    expect((await orderById(database.db, orderId))?.status).toBe("paid");
    const events = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
    expect(events.filter((event) => event.type === "payment_succeeded")).toHaveLength(1);
    const [stored] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, webhook.eventId));
    expect(stored?.appliedAt).not.toBeNull();
  });

  it("follows refunds made at the provider: part, then all", async () => {
    const ref = `pi_${randomUUID()}`;
    const orderId = await orderPayingWith(ref);
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: ref, reusableMethodRef: null } });
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 2990 } });
    expect((await orderById(database.db, orderId))?.status).toBe("partially_refunded");
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970 } });
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    // Announced by the provider, not by the store (see `takeProviderRefundTotal`).
    expect(await refundMails(orderId)).toEqual([]);
  });

  it("announces a refund the store made once, not again when the provider reports it", async () => {
    const ref = `pi_${randomUUID()}`;
    const orderId = await orderPayingWith(ref);
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: ref, reusableMethodRef: null } });
    const refunding: PaymentProvider = { ...provider, refund: () => Promise.resolve({ status: "succeeded", refundRef: `re_${randomUUID()}` }) };
    const result = await refundOrder(database.db, new Map([["fake", refunding]]), { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    expect(result.kind).toBe("refunded");
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970 } });
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    expect((await refundMails(orderId)).map((row) => row.payload.amountMinor)).toEqual([8970]);
  });

  /** An order of 89,70 € paid by `ref` with the ebook upsell (9,90 €) paid by `upsellRef`: two payments. */
  async function paidWithUpsell(ref: string, upsellRef: string): Promise<string> {
    const orderId = await orderPayingWith(ref);
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: ref, reusableMethodRef: "cus_1/pm_1" } });
    const upsell = await beginUpsell(database.db, orderId, {
      line: { step: "upsell", bundleId: "ebook-1" },
      digitalConsent: true,
      provider: "fake",
      method: "card",
      returnPath: "/upsell/de",
      today: testToday,
    });
    if (upsell.kind !== "pay") throw new Error("expected an upsell payment");
    await applyPaymentOutcome(database.db, upsell.payment.id, { status: "succeeded", providerRef: upsellRef, reusableMethodRef: null });
    return orderId;
  }

  const refundingProvider: PaymentProvider = { ...provider, refund: () => Promise.resolve({ status: "succeeded", refundRef: `re_${randomUUID()}` }) };
  const refundingProviders = new Map([["fake", refundingProvider]]);

  it("takes each payment's refund event after the back office refunded an order with an upsell, and the order stays refunded", async () => {
    const [ref, upsellRef] = [`pi_${randomUUID()}`, `pi_${randomUUID()}`];
    const orderId = await paidWithUpsell(ref, upsellRef);
    const result = await refundOrder(database.db, refundingProviders, { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    expect(result.kind).toBe("refunded");
    // The provider reports each payment's own total: the checkout's, then the upsell's.
    expect(await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970 } })).toBe(200);
    expect(await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: upsellRef, amountRefundedMinor: 990 } })).toBe(200);
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    expect(await database.db.select().from(refunds).where(eq(refunds.orderId, orderId))).toHaveLength(2);
    expect((await refundMails(orderId)).map((row) => row.payload.amountMinor)).toEqual([9960]);
  });

  it("accepts a later refund event for a refunded order and changes nothing", async () => {
    const [ref, upsellRef] = [`pi_${randomUUID()}`, `pi_${randomUUID()}`];
    const orderId = await paidWithUpsell(ref, upsellRef);
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970 } });
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: upsellRef, amountRefundedMinor: 990 } });
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    // An older total delivered late, and PayPal's reversal of a capture refunded already.
    expect(await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 2990 } })).toBe(200);
    expect(await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: upsellRef, amountRefundedMinor: 990 } })).toBe(200);
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    const given = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(given.reduce((sum, row) => sum + row.amountMinor, 0)).toBe(9960);
  });

  it("takes a refund made in the provider's dashboard off what the back office may still refund", async () => {
    const [ref, upsellRef] = [`pi_${randomUUID()}`, `pi_${randomUUID()}`];
    const orderId = await paidWithUpsell(ref, upsellRef);
    // The upsell's 9,90 € given back in the provider's dashboard, then 10 € of the checkout's payment.
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: upsellRef, amountRefundedMinor: 990 } });
    expect((await orderById(database.db, orderId))?.status).toBe("partially_refunded");
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 1000 } });
    const asked: { providerRef: string; amountMinor: number }[] = [];
    const recording: PaymentProvider = {
      ...provider,
      refund: (input) => (asked.push({ providerRef: input.providerRef, amountMinor: input.amountMinor }), Promise.resolve({ status: "succeeded", refundRef: `re_${randomUUID()}` })),
    };
    const result = await refundOrder(database.db, new Map([["fake", recording]]), { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    expect(result.kind).toBe("refunded");
    expect(asked).toEqual([{ providerRef: ref, amountMinor: 7970 }]);
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    // The provider then reports the checkout payment's whole total: nothing more to book.
    expect(await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970 } })).toBe(200);
    const given = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(given.reduce((sum, row) => sum + row.amountMinor, 0)).toBe(9960);
  });

  it("reaches refunded when the provider's dashboard refunded every payment, and the back office has nothing left to refund", async () => {
    const [ref, upsellRef] = [`pi_${randomUUID()}`, `pi_${randomUUID()}`];
    const orderId = await paidWithUpsell(ref, upsellRef);
    const refundEvent: VerifiedWebhook = { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970 } };
    expect(await Promise.all([send(database.db, refundEvent), send(database.db, { ...refundEvent, eventId: `evt_${randomUUID()}` })])).toEqual([200, 200]);
    expect((await orderById(database.db, orderId))?.status).toBe("partially_refunded");
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: upsellRef, amountRefundedMinor: 990 } });
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    const result = await refundOrder(database.db, refundingProviders, { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    expect(result).toEqual({ kind: "refused", reason: "nothing_to_refund" });
  });

  it.each([
    ["a forged signature", new Headers({ "x-signature": "forged" }), 400],
    ["no signature", new Headers(), 400],
    ["a verification that cannot be reached", new Headers({ "x-signature": "unreachable" }), 503],
  ])("answers %s with %i and stores nothing", async (_, headers, status) => {
    const eventId = `evt_${randomUUID()}`;
    expect(await send(database.db, { eventId, event: { type: "ignored", providerType: "x" } }, headers)).toBe(status);
    expect(await database.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, eventId))).toEqual([]);
  });

  it.each([
    // A refund pending at the provider (SEPA, some banks): not given back until it settles, so the
    // provider's total that already counts it moves nothing, and a failure leaves the order paid.
    ["succeeded", "refunded", [8970]],
    ["failed", "paid", []],
  ] as const)("keeps a refund the provider took as pending open until it has %s, then the order is %s", async (settled, status, mails) => {
    const ref = `pi_${randomUUID()}`;
    const orderId = await orderPayingWith(ref);
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: ref, reusableMethodRef: null } });
    const refundRef = `re_${randomUUID()}`;
    let calls = 0;
    const pendingAtProvider: PaymentProvider = { ...provider, refund: () => ((calls += 1), Promise.resolve({ status: "pending", refundRef })) };
    const providers = new Map([["fake", pendingAtProvider]]);
    const requestKey = randomUUID();
    const result = await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey });
    expect(result.kind).toBe("incomplete");
    expect(result.kind !== "refused" && result.refunds.map((refund) => [refund.status, refund.providerRef])).toEqual([["pending", refundRef]]);
    // The provider's charge total already counts it; the order waits.
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970 } });
    expect((await orderById(database.db, orderId))?.status).toBe("paid");
    // The same request again does not send it a second time (the provider's key may have expired).
    await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey });
    expect(calls).toBe(1);

    const settledEvent: VerifiedWebhook = { eventId: `evt_${randomUUID()}`, event: { type: "refund.settled", providerRef: ref, refundRef, status: settled } };
    expect(await Promise.all([send(database.db, settledEvent), send(database.db, { ...settledEvent, eventId: `evt_${randomUUID()}` })])).toEqual([200, 200]);
    expect((await orderById(database.db, orderId))?.status).toBe(status);
    const [row] = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(row?.status).toBe(settled);
    expect((await refundMails(orderId)).map((mail) => mail.payload.amountMinor)).toEqual(mails);
  });

  it("tells the buyer of a refund the provider took as pending only when the provider's refund event says it completed", async () => {
    const ref = `pi_${randomUUID()}`;
    const orderId = await orderPayingWith(ref);
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: ref, reusableMethodRef: null } });
    const refundRef = `PPREFUND${randomUUID()}`;
    const pendingAtProvider: PaymentProvider = { ...provider, refund: () => Promise.resolve({ status: "pending", refundRef }) };
    const result = await refundOrder(database.db, new Map([["fake", pendingAtProvider]]), { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    expect(result.kind).toBe("incomplete");
    expect(await refundMails(orderId)).toEqual([]);
    expect((await orderById(database.db, orderId))?.status).toBe("paid");

    // PayPal: PAYMENT.CAPTURE.REFUNDED of that refund, first while it is still pending, then completed (twice).
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970, refund: { refundRef, status: "pending" } } });
    expect(await refundMails(orderId)).toEqual([]);
    const completed = (eventId: string): VerifiedWebhook => ({ eventId, event: { type: "payment.refunded", providerRef: ref, amountRefundedMinor: 8970, refund: { refundRef, status: "succeeded" } } });
    expect(await Promise.all([send(database.db, completed(`evt_${randomUUID()}`)), send(database.db, completed(`evt_${randomUUID()}`))])).toEqual([200, 200]);
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    expect((await refundMails(orderId)).map((mail) => mail.payload.amountMinor)).toEqual([8970]);
    const rows = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(rows.map((row) => [row.status, row.amountMinor])).toEqual([["succeeded", 8970]]);
  });

  it("records a dispute on the order when the provider opens it, and its outcome when the provider closes it", async () => {
    const ref = `pi_${randomUUID()}`;
    const orderId = await orderPayingWith(ref);
    await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: ref, reusableMethodRef: null } });
    const disputeRef = `dp_${randomUUID()}`;
    const opened: VerifiedWebhook = { eventId: `evt_${randomUUID()}`, event: { type: "payment.disputed", providerRef: ref, disputeRef } };
    expect(await Promise.all([send(database.db, opened), send(database.db, { ...opened, eventId: `evt_${randomUUID()}` })])).toEqual([200, 200]);
    const rows = () => database.db.select().from(disputes).where(eq(disputes.orderId, orderId));
    expect((await rows()).map((row) => [row.providerRef, row.status, row.outcome])).toEqual([[disputeRef, "open", null]]);
    expect(await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.dispute_closed", providerRef: ref, disputeRef, outcome: "lost" } })).toBe(200);
    expect((await rows()).map((row) => [row.status, row.outcome])).toEqual([["closed", "lost"]]);
    const events = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(orderEvents.id);
    expect(events.map((event) => event.type).filter((type) => type.startsWith("dispute"))).toEqual(["dispute_opened", "dispute_closed"]);
    // The order's status is the provider's money movements' to change, not the dispute's.
    expect((await orderById(database.db, orderId))?.status).toBe("paid");
  });

  it("acknowledges events it does not act on, and events about payments it never made", async () => {
    expect(await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "ignored", providerType: "customer.created" } })).toBe(200);
    expect(await send(database.db, { eventId: `evt_${randomUUID()}`, event: { type: "payment.disputed", providerRef: "pi_unknown", disputeRef: "dp_unknown" } })).toBe(200);
  });

  // The database refuses to compare a malformed uuid: a 5xx there would be delivered again for days.
  it.each(["------------------------------------", "0b9f2a52-7d1e-4c1a-9d55-3f1e2a6b7c-d"])(
    "acknowledges an event of an unknown payment whose attempt reference %s is no uuid, changing nothing",
    async (attemptRef) => {
      const event: VerifiedWebhook = { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: `pi_${randomUUID()}`, reusableMethodRef: null, attemptRef } };
      expect(await send(database.db, event)).toBe(200);
    },
  );

  it("answers 404 for a provider without webhooks", async () => {
    expect(await receiveWebhook(database.db, undefined, signed, "{}")).toBe(404);
  });
});
