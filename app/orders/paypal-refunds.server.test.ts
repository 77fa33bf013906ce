import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakePayPal, type FakePayPal } from "../../tests/fakes/paypal/fake-paypal-api";
import { payPalCheckoutInput } from "../../tests/fakes/paypal/payment-inputs";
import { disputes, refunds } from "./schema";
import { outbox } from "../mail/schema";
import { createPayPalProvider, type PayPalProvider } from "../payments/paypal/paypal-provider.server";
import type { PaymentProvider } from "../payments/provider";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder } from "../test-support/orders";
import { orderById } from "./order-records.server";
import { applyPaymentOutcome } from "./order-service.server";
import { receiveWebhook } from "./payment-webhooks.server";
import { pollPendingRefunds, refundOrder } from "./refund-service.server";

/**
 * The store, its PayPal provider and the PayPal fake together: a refund PayPal answers PENDING, its
 * end told by PAYMENT.CAPTURE.REFUNDED or found by asking, and a dispute opened and resolved.
 */
describe.each(databaseKinds)("PayPal refunds and disputes on %s", (kind) => {
  const database = useTestDatabase(kind);
  let fake: FakePayPal;
  let paypal: PayPalProvider;
  beforeEach(async () => {
    fake = await startFakePayPal();
    paypal = createPayPalProvider({ clientId: fake.clientId, clientSecret: fake.clientSecret, webhookId: fake.webhookId, apiUrl: fake.url, publicUrl: "https://shop.example" });
  });
  afterEach(async () => {
    await fake.close();
  });

  const providers = () => new Map([["paypal", paypal]]);

  /** A PayPal order of 89,70 € that the buyer approved and the store captured. */
  async function paidWithPayPal(): Promise<{ orderId: string; payPalOrderId: string }> {
    const placed = await placeTestOrder(database.db, "paypal");
    const started = await paypal.startPayment(payPalCheckoutInput({ idempotencyKey: placed.payment.idempotencyKey, orderNumber: placed.order.number }));
    if (!started.providerRef) throw new Error("no PayPal order");
    fake.approve(started.providerRef);
    await applyPaymentOutcome(database.db, placed.payment.id, await paypal.retrievePayment(started.providerRef));
    return { orderId: placed.order.id, payPalOrderId: started.providerRef };
  }

  /** Delivers PayPal's event about the order to the store as PayPal does, signed; the store's answer. */
  async function deliver(eventType: Parameters<FakePayPal["webhookEvent"]>[0], payPalOrderId: string): Promise<number> {
    const headers = new Headers({
      "paypal-auth-algo": "SHA256withRSA",
      "paypal-cert-url": "https://api.paypal.com/v1/notifications/certs/CERT-fake",
      "paypal-transmission-id": randomUUID(),
      "paypal-transmission-sig": "c2lnbmF0dXJl",
      "paypal-transmission-time": new Date().toISOString(),
    });
    return receiveWebhook(database.db, paypal, headers, fake.webhookEvent(eventType, payPalOrderId));
  }

  const refundMails = (orderId: string) =>
    database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.orderId, orderId), eq(outbox.kind, "refund")));

  it("tells the buyer of a PENDING refund only when PayPal's PAYMENT.CAPTURE.REFUNDED says it completed", async () => {
    const { orderId, payPalOrderId } = await paidWithPayPal();
    fake.setNextRefundPending();
    const result = await refundOrder(database.db, providers(), { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    expect(result.kind).toBe("incomplete");
    expect(await refundMails(orderId)).toEqual([]);
    expect((await orderById(database.db, orderId))?.status).toBe("paid");

    const [row] = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    fake.settleRefund(row?.providerRef ?? "", "COMPLETED");
    expect(await deliver("PAYMENT.CAPTURE.REFUNDED", payPalOrderId)).toBe(200);
    expect(await deliver("PAYMENT.CAPTURE.REFUNDED", payPalOrderId)).toBe(200);
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    expect((await refundMails(orderId)).map((mail) => mail.payload.amountMinor)).toEqual([8970]);
  });

  it("finds a PENDING refund that PayPal failed by asking, shows it failed, and lets it be refunded again", async () => {
    const { orderId } = await paidWithPayPal();
    fake.setNextRefundPending();
    await refundOrder(database.db, providers(), { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    const [row] = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    fake.settleRefund(row?.providerRef ?? "", "FAILED");
    await pollPendingRefunds(database.db, providers(), { olderThanMs: 0 });
    const [failed] = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect([failed?.status, failed?.failureReason]).toEqual(["failed", expect.stringContaining("FAILED")]);
    expect((await orderById(database.db, orderId))?.status).toBe("paid");
    expect(await refundMails(orderId)).toEqual([]);

    const again = await refundOrder(database.db, providers(), { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    expect(again.kind).toBe("refunded");
    expect((await refundMails(orderId)).map((mail) => mail.payload.amountMinor)).toEqual([8970]);
  });

  it("asks PayPal about its pending refunds however many older ones of a provider that sends its own events wait", async () => {
    const { orderId } = await paidWithPayPal();
    fake.setNextRefundPending();
    await refundOrder(database.db, providers(), { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    // Older pending refunds of a provider that is never asked (Stripe tells of each by its events).
    const other = await placeTestOrder(database.db, "stripe");
    const lastWeek = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000);
    await database.db.insert(refunds).values(
      [1, 2, 3].map((n) => ({ id: randomUUID(), orderId: other.order.id, paymentId: other.payment.id, amountMinor: 100, reason: "withdrawal", status: "pending" as const, idempotencyKey: `older-${n}-${randomUUID()}`, providerRef: `re_older_${n}`, createdAt: lastWeek })),
    );
    const [row] = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    fake.settleRefund(row?.providerRef ?? "", "FAILED");
    await pollPendingRefunds(database.db, new Map<string, PaymentProvider>([["paypal", paypal], ["stripe", { ...paypal, id: "stripe", retrieveRefund: undefined }]]), { olderThanMs: 0, limit: 2 });
    expect((await database.db.select().from(refunds).where(eq(refunds.orderId, orderId)))[0]?.status).toBe("failed");
  });

  it("keeps a dispute open from CUSTOMER.DISPUTE.CREATED until CUSTOMER.DISPUTE.RESOLVED", async () => {
    const { orderId, payPalOrderId } = await paidWithPayPal();
    expect(await deliver("CUSTOMER.DISPUTE.CREATED", payPalOrderId)).toBe(200);
    const rows = () => database.db.select().from(disputes).where(eq(disputes.orderId, orderId));
    expect((await rows()).map((row) => row.status)).toEqual(["open"]);
    expect(await deliver("CUSTOMER.DISPUTE.RESOLVED", payPalOrderId)).toBe(200);
    expect((await rows()).map((row) => [row.status, row.outcome])).toEqual([["closed", "RESOLVED_SELLER_FAVOUR"]]);
  });
});
