import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../db/database.server";
import { orderEvents, payments, refunds } from "./schema";
import { outbox } from "../mail/schema";
import { testGatewayCharges, testGatewayRefunds } from "../payments/test-gateway/schema";
import { marketFor } from "../market/markets";
import type { PaymentProvider, StartPaymentInput, VerifiedWebhook } from "../payments/provider";
import { createStripeProvider } from "../payments/stripe/stripe-provider.server";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { fakeTestPaymentMethods, startFakeStripe, type FakeStripe } from "../../tests/fakes/stripe/fake-stripe-api";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { testBuyer, testToday } from "../test-support/orders";
import { orderById, paymentById, type Payment } from "./order-records.server";
import { placeOrder, type NewOrder } from "./order-service.server";
import {
  inFlightForMs,
  reconcileAfterMs,
  reconcilePaymentAttempts,
  refreshAttempt,
  returnedPaymentState,
  runPaymentAttempt,
  supersedeLeftOrder,
  waitForSettledPayment,
  type AttemptRequest,
  type ProviderLookup,
} from "./payment-attempts.server";
import { receiveWebhook } from "./payment-webhooks.server";
import { quoteCheckout } from "./quote.server";
import { pollPendingRefunds } from "./refund-service.server";

const quote = quoteCheckout(marketFor("DE"), "shape-3", testToday);
if (!quote) throw new Error("shape-3 is not for sale");

function newOrder(token: string): NewOrder {
  return {
    checkoutToken: token,
    market: "DE",
    locale: "de_DE",
    currency: "EUR",
    contact: testBuyer,
    lines: quote?.lines ?? [],
    totals: quote?.totals ?? { itemsMinor: 0, deliveryMinor: 0, deliveryVatRateBp: 0, vatMinor: 0, totalMinor: 0 },
    funnelSrc: null,
    test: true,
    digitalConsent: false,
  };
}

function startRequest(method: string, details: Record<string, string>): AttemptRequest {
  return {
    kind: "start",
    input: { customer: { email: testBuyer.email, name: "Anna Muster", country: "DE" }, orderNumber: "VN-TEST", amountMinor: 8970, currency: "EUR", method, details, saveMethod: true, returnUrl: "/checkout-return/x" },
  };
}

const card = { number: "4242424242424242", expiry: "12/30", cvc: "123" };

/** A provider that records what it was sent and can lose its answers, standing in for Stripe's idempotent API. */
function recordingProvider(gateway: TestGateway) {
  const sent: StartPaymentInput[] = [];
  let answersToLose = 0;
  const provider: PaymentProvider = {
    id: "test",
    async startPayment(input) {
      sent.push(input);
      const outcome = await gateway.startPayment(input);
      if (answersToLose > 0) {
        answersToLose--;
        throw new Error("socket hang up");
      }
      return outcome;
    },
    retrievePayment: (ref) => gateway.retrievePayment(ref),
    cancelPayment: (ref) => gateway.cancelPayment(ref),
    chargeSavedMethod: (input) => gateway.chargeSavedMethod(input),
    refund: (input) => gateway.refund(input),
    async verifyWebhook(_headers: Headers, rawBody: string): Promise<VerifiedWebhook> {
      return JSON.parse(rawBody) as VerifiedWebhook;
    },
  };
  return { provider, sent, loseAnswers: (count: number) => (answersToLose = count) };
}

describe("returnedPaymentState", () => {
  const base = { status: "cancelled", upsellLine: null, strayRefundRef: null } as unknown as Payment;
  it("says paid when the order is paid, whichever of its attempts the return names", () => {
    expect(returnedPaymentState({ ...base, supersededAt: new Date() }, "paid")).toBe("paid");
    expect(returnedPaymentState({ ...base, status: "succeeded" }, "fulfilled")).toBe("paid");
  });
  it("never says paid of an unpaid order, even when a closed attempt's charge was given back", () => {
    expect(returnedPaymentState({ ...base, strayRefundRef: "tgr_1" }, "pending_payment")).toBe("failed");
    expect(returnedPaymentState({ ...base, status: "requires_action" }, "pending_payment")).toBe("waiting");
    expect(returnedPaymentState({ ...base, status: "processing" }, "pending_payment")).toBe("processing");
  });
  it("takes an upsell's state from its own payment, the order being paid before it", () => {
    expect(returnedPaymentState({ ...base, status: "declined", upsellLine: { step: 1 } } as unknown as Payment, "paid")).toBe("failed");
  });
});

describe.each(databaseKinds)("payment attempts on %s", (kind) => {
  const database = useTestDatabase(kind);

  async function setup() {
    const gateway = new TestGateway(database.db);
    const recording = recordingProvider(gateway);
    const providers: ProviderLookup = (id) => (id === "test" ? recording.provider : undefined);
    return { gateway, providers, ...recording };
  }

  async function pay(db: Database, providers: ProviderLookup, token: string, method: string, details: Record<string, string>) {
    const placed = await placeOrder(db, newOrder(token), { provider: "test", method, returnPath: "/checkout/de?bundle=shape-3" });
    if (placed.kind === "already_paid") throw new Error("already paid");
    return runPaymentAttempt(db, providers, placed, startRequest(method, details));
  }

  /** The buyer pays by card while the bank's payment cannot be cancelled; the bank approves it just after: a stray charge. */
  async function payWhileBankApproves(providers: ProviderLookup, provider: PaymentProvider, token: string, bankCharge: string) {
    const cancel = provider.cancelPayment;
    provider.cancelPayment = () => Promise.reject(new Error("socket hang up"));
    const byCard = await pay(database.db, providers, token, "card", card);
    provider.cancelPayment = cancel;
    await new TestGateway(database.db).answer(bankCharge, true);
    await reconcilePaymentAttempts(database.db, providers, () => new Date(Date.now() + reconcileAfterMs + 1000));
    return byCard;
  }

  const eventTypes = async (orderId: string) => (await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId))).map((event) => event.type);

  it.each([
    ["approves", true, "paid", "succeeded"],
    ["fails", false, "payment_failed", "declined"],
  ] as const)(
    "leaves a 3-D Secure that Stripe answers for Stripe.js to the buyer's browser with the client secret, stores it nowhere, and applies what Stripe says after the buyer %s",
    async (_name, approved, orderStatus, paymentStatus) => {
      const fake = await startFakeStripe({ stripeSdkWins: true });
      try {
        const stripe = createStripeProvider({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, publicUrl: "https://shop.example" });
        const providers: ProviderLookup = (id) => (id === "stripe" ? stripe : undefined);
        const token = randomUUID();
        const placed = await placeOrder(database.db, newOrder(token), { provider: "stripe", method: "stripe", returnPath: "/checkout/de?bundle=shape-3" });
        if (placed.kind === "already_paid") throw new Error("already paid");
        const attempt = await runPaymentAttempt(database.db, providers, placed, startRequest("stripe", { paymentMethod: fake.confirmationToken(fakeTestPaymentMethods.authenticationRequired) }));
        if (attempt.kind !== "settled" || attempt.outcome.status !== "requires_action" || attempt.outcome.clientSecret === undefined) throw new Error(`expected a Stripe.js next action, got ${JSON.stringify(attempt)}`);
        const secret = attempt.outcome.clientSecret;
        expect(secret).toBe(fake.paymentIntent(attempt.payment.providerRef ?? "").client_secret);
        expect(attempt.payment.status).toBe("requires_action");
        const rows = JSON.stringify([await paymentById(database.db, attempt.payment.id), await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, placed.order.id))]);
        expect(rows).not.toContain(secret);

        // Stripe.js finished the challenge; the return path asks Stripe and applies its answer.
        fake.authenticate(attempt.payment.providerRef ?? "", approved);
        const returned = await refreshAttempt(database.db, stripe, (await paymentById(database.db, attempt.payment.id)) ?? attempt.payment);
        expect(returned.payment.status).toBe(paymentStatus);
        expect(returned.order?.status).toBe(orderStatus);
        if (approved) return;
        expect(returned.payment.failureCode).toBe("authentication_failed");
        // The buyer pays again with another card: a new attempt, one charge.
        const again = await placeOrder(database.db, newOrder(token), { provider: "stripe", method: "stripe", returnPath: "/checkout/de?bundle=shape-3" });
        if (again.kind === "already_paid") throw new Error("already paid");
        const retried = await runPaymentAttempt(database.db, providers, again, startRequest("stripe", { paymentMethod: fake.confirmationToken(fakeTestPaymentMethods.succeeds) }));
        expect(retried.kind === "settled" && retried.order.status).toBe("paid");
        expect(fake.count("charges")).toBe(1);
      } finally {
        await fake.close();
      }
    },
  );

  it("cancels at the provider the bank payment a buyer left for a card, so approving it later takes nothing", async () => {
    const { gateway, providers } = await setup();
    const token = randomUUID();
    const atBank = await pay(database.db, providers, token, "bank", {});
    if (atBank.kind !== "settled" || atBank.outcome.status !== "requires_action") throw new Error("expected the bank's page");
    const bankCharge = atBank.payment.providerRef ?? "";

    const byCard = await pay(database.db, providers, token, "card", card);
    expect(byCard.kind === "settled" && byCard.order.status).toBe("paid");

    // The buyer approves in the bank's tab they left open: the cancelled charge cannot be approved.
    const answered = await gateway.answer(bankCharge, true);
    expect(answered?.status).toBe("declined");
    const charged = await database.db.select().from(testGatewayCharges).where(eq(testGatewayCharges.status, "succeeded"));
    expect(charged.filter((charge) => charge.currency === "EUR" && [bankCharge, byCard.kind === "settled" ? byCard.payment.providerRef : ""].includes(charge.id))).toHaveLength(1);
    const superseded = await paymentById(database.db, atBank.payment.id);
    expect(superseded).toMatchObject({ status: "cancelled", strayRefundRef: null });
    expect(superseded?.providerClosedAt).not.toBeNull();
    expect(await eventTypes(atBank.order.id)).toEqual(expect.arrayContaining(["payment_superseded", "payment_cancelled_at_provider"]));
  });

  // The kept request names the buyer (e-mail, name, country): it is needed only for a replay while the attempt is open.
  it("keeps what an attempt sent only while the attempt is open", async () => {
    const { providers } = await setup();
    const token = randomUUID();
    const atBank = await pay(database.db, providers, token, "bank", {});
    if (atBank.kind !== "settled" || atBank.outcome.status !== "requires_action") throw new Error("expected the bank's page");
    expect(JSON.stringify((await paymentById(database.db, atBank.payment.id))?.providerRequest)).toContain(newOrder(token).contact.email);
    const byCard = await pay(database.db, providers, token, "card", card);
    if (byCard.kind !== "settled") throw new Error("expected a settled card payment");
    expect((await paymentById(database.db, atBank.payment.id))?.status).toBe("cancelled");
    expect((await paymentById(database.db, atBank.payment.id))?.providerRequest).toBeNull();
    expect((await paymentById(database.db, byCard.payment.id))?.status).toBe("succeeded");
    expect((await paymentById(database.db, byCard.payment.id))?.providerRequest).toBeNull();
  });

  it("closes at the provider the waiting attempt of the unpaid order a buyer leaves for a new order in the same browser", async () => {
    const { gateway, providers } = await setup();
    const atBank = await pay(database.db, providers, randomUUID(), "bank", {});
    if (atBank.kind !== "settled" || atBank.outcome.status !== "requires_action") throw new Error("expected the bank's page");
    const bankCharge = atBank.payment.providerRef ?? "";

    // Back at the store, the buyer checks out another bundle: a new order, and the old one is left.
    const placed = await placeOrder(database.db, newOrder(randomUUID()), { provider: "test", method: "card", returnPath: "/checkout/de?bundle=shape-3" });
    if (placed.kind !== "pay") throw new Error("expected a new order");
    await supersedeLeftOrder(database.db, providers, atBank.order.id, placed.order.id);
    const byCard = await runPaymentAttempt(database.db, providers, placed, startRequest("card", card));
    expect(byCard.kind === "settled" && byCard.order.status).toBe("paid");

    // Approving the old order's payment later takes nothing.
    expect((await gateway.answer(bankCharge, true))?.status).toBe("declined");
    const left = await paymentById(database.db, atBank.payment.id);
    expect(left).toMatchObject({ status: "cancelled" });
    expect(left?.supersededAt).not.toBeNull();
    expect(left?.providerClosedAt).not.toBeNull();
    expect((await orderById(database.db, atBank.order.id))?.status).not.toBe("paid");
    // An order that is paid, or the new order itself, is never touched.
    await supersedeLeftOrder(database.db, providers, placed.order.id, atBank.order.id);
    expect((await orderById(database.db, placed.order.id))?.status).toBe("paid");
  });

  it("takes a payment the buyer finished in the other tab as the order's, instead of charging the new one and refunding it", async () => {
    const { gateway, providers, sent } = await setup();
    const token = randomUUID();
    const atBank = await pay(database.db, providers, token, "bank", {});
    if (atBank.kind !== "settled") throw new Error("expected the bank's page");
    const bankCharge = atBank.payment.providerRef ?? "";
    // The bank approves just before the buyer pays by card in the other tab.
    await gateway.answer(bankCharge, true);

    const byCard = await pay(database.db, providers, token, "card", card);
    if (byCard.kind !== "settled") throw new Error("expected an outcome");
    expect(byCard.order.status).toBe("paid");
    expect(byCard.payment).toMatchObject({ id: atBank.payment.id, status: "succeeded", supersededAt: null, strayRefundRef: null });
    // The card was never sent to the provider, and nothing is given back.
    expect(sent.map((input) => input.method)).toEqual(["bank"]);
    expect(await database.db.select().from(testGatewayRefunds).where(eq(testGatewayRefunds.chargeId, bankCharge))).toHaveLength(0);
    const cardAttempt = (await database.db.select().from(payments).where(eq(payments.orderId, atBank.order.id))).find((payment) => payment.method === "card");
    expect(cardAttempt).toMatchObject({ status: "cancelled", providerRef: null });
    expect(cardAttempt?.providerClosedAt).not.toBeNull();
    expect(await eventTypes(atBank.order.id)).toEqual(expect.arrayContaining(["payment_finished_elsewhere", "payment_succeeded"]));
    expect(await database.db.select().from(outbox).where(and(eq(outbox.orderId, atBank.order.id), eq(outbox.kind, "order-confirmation")))).toHaveLength(1);
    // The reconciler finds nothing left to close.
    expect(await reconcilePaymentAttempts(database.db, providers, () => new Date(Date.now() + reconcileAfterMs + 1000))).toBe(0);
  });

  it("refunds at once what a superseded payment took in a race, says why on the timeline, and keeps the order paid", async () => {
    const { gateway, providers, provider } = await setup();
    const token = randomUUID();
    const atBank = await pay(database.db, providers, token, "bank", {});
    if (atBank.kind !== "settled") throw new Error("expected the bank's page");
    const bankCharge = atBank.payment.providerRef ?? "";
    // The provider cannot be reached to cancel the bank payment while the buyer pays by card...
    const cancel = provider.cancelPayment;
    provider.cancelPayment = () => Promise.reject(new Error("socket hang up"));
    const byCard = await pay(database.db, providers, token, "card", card);
    expect(byCard.kind === "settled" && byCard.order.status).toBe("paid");
    // ...and the bank approves before the reconciler closes it.
    await gateway.answer(bankCharge, true);
    provider.cancelPayment = cancel;
    expect(await reconcilePaymentAttempts(database.db, providers, () => new Date(Date.now() + reconcileAfterMs + 1000))).toBe(1);
    const refunded = await database.db.select().from(testGatewayRefunds).where(eq(testGatewayRefunds.chargeId, bankCharge));
    expect(refunded).toHaveLength(1);
    expect(refunded[0]?.amountMinor).toBe(8970);
    expect((await paymentById(database.db, atBank.payment.id))?.strayRefundRef).toBe(refunded[0]?.id);
    const [event] = await database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, atBank.order.id), eq(orderEvents.type, "stray_charge_refunded")));
    expect(event?.detail).toMatchObject({ payment: atBank.payment.id, reason: "paid_another_way", amount: 8970 });
    expect((await orderById(database.db, atBank.order.id))?.status).toBe("paid");

    // The provider's success and refund events for that charge change nothing more.
    for (const webhook of [
      { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: bankCharge, reusableMethodRef: null } },
      { eventId: `evt_${randomUUID()}`, event: { type: "payment.refunded", providerRef: bankCharge, amountRefundedMinor: 8970 } },
    ] satisfies VerifiedWebhook[]) {
      expect(await receiveWebhook(database.db, providers("test"), new Headers(), JSON.stringify(webhook))).toBe(200);
    }
    expect(await database.db.select().from(testGatewayRefunds).where(eq(testGatewayRefunds.chargeId, bankCharge))).toHaveLength(1);
    expect((await orderById(database.db, atBank.order.id))?.status).toBe("paid");
  });

  it("keeps the refund of a stray charge until the provider settles it, and shows the operator one that failed, apart from the order's refunds", async () => {
    const { providers, provider } = await setup();
    const token = randomUUID();
    const atBank = await pay(database.db, providers, token, "bank", {});
    if (atBank.kind !== "settled") throw new Error("expected the bank's page");
    const bankCharge = atBank.payment.providerRef ?? "";
    // The provider takes the refund of the stray charge as pending (a bank transfer takes days).
    provider.refund = async () => ({ status: "pending", refundRef: "re_stray_pending" });
    const byCard = await payWhileBankApproves(providers, provider, token, bankCharge);
    expect(byCard.kind === "settled" && byCard.order.status).toBe("paid");
    const [stray] = await database.db.select().from(refunds).where(eq(refunds.paymentId, atBank.payment.id));
    expect(stray).toMatchObject({ kind: "stray", status: "pending", providerRef: "re_stray_pending", amountMinor: 8970, lineIds: [] });

    // The poll asks about it like any pending refund: still pending, nothing changes.
    let answer: "pending" | "failed" = "pending";
    provider.retrieveRefund = async (refundRef) => (answer === "pending" ? { status: "pending", refundRef } : { status: "failed", reason: "the bank account is closed" });
    const pollers = new Map([["test", provider]]);
    await pollPendingRefunds(database.db, pollers, { olderThanMs: 0 });
    expect((await database.db.select().from(refunds).where(eq(refunds.id, stray?.id ?? "")))[0]?.status).toBe("pending");

    // Then it fails: the row says so, the timeline says the operator must act, the order stays paid and untouched.
    answer = "failed";
    await pollPendingRefunds(database.db, pollers, { olderThanMs: 0 });
    const [failed] = await database.db.select().from(refunds).where(eq(refunds.id, stray?.id ?? ""));
    expect(failed).toMatchObject({ status: "failed", failureReason: "the bank account is closed" });
    expect(await eventTypes(atBank.order.id)).toContain("stray_charge_refund_failed");
    const order = await orderById(database.db, atBank.order.id);
    expect(order?.status).toBe("paid");
    expect(await database.db.select().from(outbox).where(and(eq(outbox.orderId, atBank.order.id), eq(outbox.kind, "refund")))).toHaveLength(0);
  });

  it("books a stray refund that the provider's event completes without counting it as given back of the order", async () => {
    const { providers, provider } = await setup();
    const token = randomUUID();
    const atBank = await pay(database.db, providers, token, "bank", {});
    if (atBank.kind !== "settled") throw new Error("expected the bank's page");
    provider.refund = async () => ({ status: "pending", refundRef: "re_stray_later" });
    await payWhileBankApproves(providers, provider, token, atBank.payment.providerRef ?? "");
    const webhook: VerifiedWebhook = { eventId: `evt_${randomUUID()}`, event: { type: "refund.settled", providerRef: atBank.payment.providerRef ?? "", refundRef: "re_stray_later", status: "succeeded" } };
    expect(await receiveWebhook(database.db, provider, new Headers(), JSON.stringify(webhook))).toBe(200);
    const [stray] = await database.db.select().from(refunds).where(eq(refunds.paymentId, atBank.payment.id));
    expect(stray?.status).toBe("succeeded");
    expect((await orderById(database.db, atBank.order.id))?.status).toBe("paid");
    expect(await eventTypes(atBank.order.id)).toContain("stray_charge_refund_confirmed");
    expect(await database.db.select().from(outbox).where(and(eq(outbox.orderId, atBank.order.id), eq(outbox.kind, "refund")))).toHaveLength(0);
  });

  it("never captures a closed attempt when the provider says it waits for the store, and refunds one charged anyway", async () => {
    const { gateway, providers, provider } = await setup();
    const token = randomUUID();
    const atBank = await pay(database.db, providers, token, "bank", {});
    if (atBank.kind !== "settled") throw new Error("expected the bank's page");
    // The store closed the attempt, but could not reach the provider to cancel it.
    await database.db.update(payments).set({ status: "cancelled", failureCode: "cancelled", supersededAt: new Date() }).where(eq(payments.id, atBank.payment.id));
    const bankCharge = atBank.payment.providerRef ?? "";
    const retrieve = provider.retrievePayment;
    provider.retrievePayment = () => Promise.reject(new Error("a closed attempt must not be asked to settle"));
    const webhook: VerifiedWebhook = { eventId: `evt_${randomUUID()}`, event: { type: "payment.awaiting_store", providerRef: bankCharge } };
    expect(await receiveWebhook(database.db, provider, new Headers(), JSON.stringify(webhook))).toBe(200);
    expect((await gateway.charge(bankCharge))?.status).toBe("declined");

    await database.db.update(testGatewayCharges).set({ status: "succeeded" }).where(eq(testGatewayCharges.id, bankCharge));
    const back = await refreshAttempt(database.db, provider, (await paymentById(database.db, atBank.payment.id)) ?? atBank.payment);
    expect(back.payment.strayRefundRef).toMatch(/^tgr_/);
    provider.retrievePayment = retrieve;
  });

  it("keeps asking, less often after a day, about a superseded attempt the provider could not cancel while its debit was processing, and refunds it once it succeeds", async () => {
    const { gateway, providers, provider } = await setup();
    const token = randomUUID();
    const atBank = await pay(database.db, providers, token, "bank", {});
    if (atBank.kind !== "settled") throw new Error("expected the bank's page");
    const bankCharge = atBank.payment.providerRef ?? "";
    // The debit is on its way at the bank: the provider cannot cancel it.
    const cancel = provider.cancelPayment;
    provider.cancelPayment = async (ref) => ({ status: "processing", providerRef: ref });
    const byCard = await pay(database.db, providers, token, "card", card);
    expect(byCard.kind === "settled" && byCard.order.status).toBe("paid");
    expect((await paymentById(database.db, atBank.payment.id))?.providerClosedAt).toBeNull();

    const hour = 60 * 60 * 1000;
    const at = (ms: number) => () => new Date(Date.now() + ms);
    expect(await reconcilePaymentAttempts(database.db, providers, at(25 * hour))).toBe(1);
    // Past its first day it is asked hourly, not every few minutes.
    expect(await reconcilePaymentAttempts(database.db, providers, at(25 * hour + reconcileAfterMs + 1000))).toBe(0);

    // Days later the debit has gone through: the next round refunds it.
    await gateway.answer(bankCharge, true);
    provider.cancelPayment = cancel;
    expect(await reconcilePaymentAttempts(database.db, providers, at(4 * 24 * hour))).toBe(1);
    expect((await paymentById(database.db, atBank.payment.id))?.strayRefundRef).toMatch(/^tgr_/);
    expect(await database.db.select().from(testGatewayRefunds).where(eq(testGatewayRefunds.chargeId, bankCharge))).toHaveLength(1);
  });

  it("waits for an attempt another request has just sent, but not for one whose answer was lost seconds ago", async () => {
    const { providers, loseAnswers } = await setup();
    loseAnswers(1);
    const lost = await pay(database.db, providers, randomUUID(), "card", card);
    expect(lost.kind).toBe("unavailable");

    // Just sent: a double click waits for the provider's answer, here until the wait gives up.
    let started = Date.now();
    expect((await waitForSettledPayment(database.db, lost.payment.id, 600))?.status).toBe("started");
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);

    // Sent longer ago than any request takes to come back here: nobody is paying it, no wait.
    await database.db.update(payments).set({ updatedAt: new Date(Date.now() - inFlightForMs - 1000) }).where(eq(payments.id, lost.payment.id));
    started = Date.now();
    expect((await waitForSettledPayment(database.db, lost.payment.id))?.status).toBe("started");
    expect(Date.now() - started).toBeLessThan(1000);

    // The buyer's retry replays at once; its answer lost too, the attempt counts as just sent again.
    const retry = async () => runPaymentAttempt(database.db, providers, { kind: "in_progress", payment: (await paymentById(database.db, lost.payment.id)) ?? lost.payment }, startRequest("card", card));
    loseAnswers(1);
    started = Date.now();
    expect((await retry()).kind).toBe("unavailable");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(Date.now() - ((await paymentById(database.db, lost.payment.id))?.updatedAt.getTime() ?? 0)).toBeLessThan(inFlightForMs);

    await database.db.update(payments).set({ updatedAt: new Date(Date.now() - inFlightForMs - 1000) }).where(eq(payments.id, lost.payment.id));
    started = Date.now();
    const again = await retry();
    expect(again.kind === "settled" && again.order.status).toBe("paid");
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("replays a lost answer with what the first call sent, though the buyer's next submission brings a new token", async () => {
    const { providers, sent, loseAnswers } = await setup();
    const token = randomUUID();
    loseAnswers(1);
    const lost = await pay(database.db, providers, token, "card", { ...card, paymentMethod: "ctoken_first" });
    expect(lost.kind).toBe("unavailable");
    await database.db.update(payments).set({ updatedAt: new Date(Date.now() - 60_000) }).where(eq(payments.id, lost.payment.id));

    const again = await pay(database.db, providers, token, "card", { ...card, paymentMethod: "ctoken_second" });
    expect(again.kind === "settled" && again.order.status).toBe("paid");
    expect(sent.map((input) => [input.idempotencyKey, input.details.paymentMethod])).toEqual([
      [lost.payment.idempotencyKey, "ctoken_first"],
      [lost.payment.idempotencyKey, "ctoken_first"],
    ]);
    expect(sent.every((input) => input.attemptRef === lost.payment.id)).toBe(true);
    // Card fields typed into our form are never kept with the attempt.
    expect(JSON.stringify((await paymentById(database.db, lost.payment.id))?.providerRequest)).not.toContain("4242");
  }, 30_000);

  /** A checkout paid through Stripe (the fake), whose answers to the intent's creation are all lost: the first try and the SDK's retry. */
  async function payByStripeLosingAnswers(fake: FakeStripe) {
    const stripe = createStripeProvider({ secretKey: fake.secretKey, webhookSecret: fake.webhookSecret, apiUrl: fake.url, publicUrl: "https://shop.example" });
    const providers: ProviderLookup = (id) => (id === "stripe" ? stripe : undefined);
    const token = randomUUID();
    const submit = async (confirmationToken: string) => {
      const placed = await placeOrder(database.db, newOrder(token), { provider: "stripe", method: "stripe", returnPath: "/checkout/de?bundle=shape-3" });
      if (placed.kind === "already_paid") throw new Error("already paid");
      return runPaymentAttempt(database.db, providers, placed, startRequest("stripe", { paymentMethod: confirmationToken }));
    };
    fake.failNext({ path: "/v1/payment_intents", afterProcessing: true });
    fake.failNext({ path: "/v1/payment_intents", afterProcessing: true });
    const lost = await submit(fake.confirmationToken(fakeTestPaymentMethods.succeeds));
    expect(lost.kind).toBe("unavailable");
    expect(fake.requestsTo("POST", "/v1/payment_intents")).toHaveLength(2);
    expect(fake.count("charges")).toBe(1);
    expect((await paymentById(database.db, lost.payment.id))?.providerRef).toBeNull();
    return { stripe, lost, submit };
  }

  it("charges once at Stripe when both answers to the intent were lost and the buyer submits again with a new ConfirmationToken", async () => {
    const fake = await startFakeStripe();
    try {
      const { lost, submit } = await payByStripeLosingAnswers(fake);
      // Past the wait for a request in flight: the buyer's next submission replays the first.
      await database.db.update(payments).set({ updatedAt: new Date(Date.now() - 60_000) }).where(eq(payments.id, lost.payment.id));

      const again = await submit(fake.confirmationToken(fakeTestPaymentMethods.succeeds));
      // Sending the new token under the first key would be Stripe's idempotency_error, for ever.
      expect(again.kind === "settled" && again.order.status).toBe("paid");
      expect(fake.count("payment_intents")).toBe(1);
      expect(fake.count("charges")).toBe(1);
      const posts = fake.requestsTo("POST", "/v1/payment_intents");
      expect(posts).toHaveLength(3);
      expect(new Set(posts.map((request) => request.headers["idempotency-key"])).size).toBe(1);
      expect(new Set(posts.map((request) => request.rawBody)).size).toBe(1);
      expect(posts[2]?.status).toBe(200);
      const paid = await paymentById(database.db, lost.payment.id);
      expect(paid).toMatchObject({ status: "succeeded", providerRef: fake.paymentIntentIds()[0] });
      expect(await database.db.select().from(outbox).where(and(eq(outbox.orderId, lost.payment.orderId), eq(outbox.kind, "order-confirmation")))).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it("pays the order when both answers to the intent were lost and Stripe's event names it only by our metadata", async () => {
    const fake = await startFakeStripe();
    try {
      const { stripe, lost } = await payByStripeLosingAnswers(fake);
      const [intentId] = fake.paymentIntentIds();
      const intent = fake.paymentIntent(intentId ?? "");
      expect(intent.metadata).toMatchObject({ payment_id: lost.payment.id });

      const rawBody = fake.event("payment_intent.succeeded", intent);
      expect(await receiveWebhook(database.db, stripe, new Headers({ "stripe-signature": fake.signature(rawBody) }), rawBody)).toBe(200);
      expect(await paymentById(database.db, lost.payment.id)).toMatchObject({ status: "succeeded", providerRef: intentId });
      expect((await orderById(database.db, lost.payment.orderId))?.status).toBe("paid");
      expect(fake.count("charges")).toBe(1);
      expect(await database.db.select().from(outbox).where(and(eq(outbox.orderId, lost.payment.orderId), eq(outbox.kind, "order-confirmation")))).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it("pays the order of an attempt whose answer was lost when the provider's event names only our reference", async () => {
    const { providers, provider, loseAnswers } = await setup();
    loseAnswers(1);
    const lost = await pay(database.db, providers, randomUUID(), "card", card);
    expect(lost.kind).toBe("unavailable");
    expect((await paymentById(database.db, lost.payment.id))?.providerRef).toBeNull();
    const [charge] = await database.db.select().from(testGatewayCharges).where(eq(testGatewayCharges.idempotencyKey, lost.payment.idempotencyKey));
    const webhook: VerifiedWebhook = { eventId: `evt_${randomUUID()}`, event: { type: "payment.succeeded", providerRef: charge?.id ?? "", reusableMethodRef: null, attemptRef: lost.payment.id } };
    expect(await receiveWebhook(database.db, provider, new Headers(), JSON.stringify(webhook))).toBe(200);
    const order = await orderById(database.db, lost.payment.orderId);
    expect(order?.status).toBe("paid");
    expect(await database.db.select().from(outbox).where(and(eq(outbox.orderId, lost.payment.orderId), eq(outbox.kind, "order-confirmation")))).toHaveLength(1);
  });

  it("reconciles attempts left open, each by one instance: replays a lost call, settles an approved one, leaves a waiting one as it is", async () => {
    const { gateway, providers, loseAnswers } = await setup();
    loseAnswers(1);
    const lost = await pay(database.db, providers, randomUUID(), "card", card);
    const atBank = await pay(database.db, providers, randomUUID(), "bank", {});
    if (atBank.kind !== "settled") throw new Error("expected the bank's page");
    await gateway.answer(atBank.payment.providerRef ?? "", true);
    const waiting = await pay(database.db, providers, randomUUID(), "bank", {});
    if (waiting.kind !== "settled") throw new Error("expected the bank's page");
    const waitingEvents = await eventTypes(waiting.order.id);

    // Not yet due: nothing is asked.
    expect(await reconcilePaymentAttempts(database.db, providers)).toBe(0);
    const later = () => new Date(Date.now() + reconcileAfterMs + 1000);
    const rounds = await Promise.all([reconcilePaymentAttempts(database.db, providers, later), reconcilePaymentAttempts(database.db, providers, later)]);
    expect(rounds[0] + rounds[1]).toBe(3);
    // The buyer still at the bank: asked, and nothing new on the timeline.
    expect(await eventTypes(waiting.order.id)).toEqual(waitingEvents);
    for (const orderId of [lost.payment.orderId, atBank.order.id]) {
      expect((await orderById(database.db, orderId))?.status).toBe("paid");
      expect(await database.db.select().from(outbox).where(and(eq(outbox.orderId, orderId), eq(outbox.kind, "order-confirmation")))).toHaveLength(1);
    }
    // Asked once: the next round within the interval asks nobody.
    expect(await reconcilePaymentAttempts(database.db, providers, later)).toBe(0);
  });
});
