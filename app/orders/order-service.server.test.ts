import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderEvents, payments, orders } from "./schema";
import { outbox } from "../mail/schema";
import { claimDue, markSent } from "../mail/outbox.server";
import { marketFor } from "../market/markets";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { testBuyer } from "../test-support/orders";
import { applyPaymentOutcome, endFunnel, placeOrder, type NewOrder } from "./order-service.server";
import { quoteCheckout } from "./quote.server";
import { receiveWithdrawal } from "./withdrawal.server";

const market = marketFor("DE");
const today = new Date("2026-11-23T12:00:00Z");
const quote = quoteCheckout(market, "shape-3", today);
if (!quote) throw new Error("shape-3 is not for sale");

function newOrder(token = randomUUID()): NewOrder {
  return {
    checkoutToken: token,
    market: "DE",
    locale: "de_DE",
    currency: "EUR",
    // Capitals in the address: withdrawals must match it whatever the case.
    contact: { ...testBuyer, email: "Anna.Muster@example.com" },
    lines: quote?.lines ?? [],
    totals: quote?.totals ?? { itemsMinor: 0, deliveryMinor: 0, deliveryVatRateBp: 0, vatMinor: 0, totalMinor: 0 },
    funnelSrc: "v2",
    test: true,
    digitalConsent: false,
  };
}

const paying = { provider: "test", method: "card", returnPath: "/checkout/de?bundle=shape-3" };

describe.each(databaseKinds)("orders on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("prices the order on the server: 3 packs of Shape, 7 % VAT included, free delivery", async () => {
    const placed = await placeOrder(database.db, newOrder(), paying);
    expect(placed.kind).toBe("pay");
    expect(placed.order).toMatchObject({ status: "pending_payment", totalMinor: 8970, vatMinor: 587, deliveryMinor: 0, currency: "EUR" });
    expect(placed.order.number).toMatch(/^VN-[2-9A-Z]{4}-[2-9A-Z]{4}$/);
  });

  it("gives one order and one payment for a form sent ten times at once", async () => {
    const token = randomUUID();
    const results = await Promise.all(Array.from({ length: 10 }, () => placeOrder(database.db, newOrder(token), paying)));
    expect(new Set(results.map((result) => result.order.id)).size).toBe(1);
    expect(results.filter((result) => result.kind === "pay")).toHaveLength(1);
    const orderId = results[0]?.order.id ?? "";
    expect(await database.db.select().from(payments).where(eq(payments.orderId, orderId))).toHaveLength(1);
  });

  it("marks a paid order once, with its events and one confirmation e-mail delayed for upsells", async () => {
    const placed = await placeOrder(database.db, newOrder(), paying);
    if (placed.kind !== "pay") throw new Error("expected a payment to start");
    const outcome = { status: "succeeded", providerRef: "tgc_x", reusableMethodRef: null } as const;
    const first = await applyPaymentOutcome(database.db, placed.payment.id, outcome);
    const again = await applyPaymentOutcome(database.db, placed.payment.id, outcome);
    expect(first.order.status).toBe("paid");
    expect(again.order.status).toBe("paid");
    const mails = await database.db.select().from(outbox).where(eq(outbox.orderId, placed.order.id));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.sendAfter.getTime()).toBeGreaterThan(Date.now() + 14 * 60 * 1000);
    const events = await database.db.select().from(orderEvents).where(eq(orderEvents.orderId, placed.order.id));
    expect(events.map((event) => event.type)).toEqual(["order_created", "payment_started", "payment_succeeded"]);
    expect(events.at(-1)).toMatchObject({ fromStatus: "pending_payment", toStatus: "paid" });

    await endFunnel(database.db, placed.order.id);
    const [due] = await database.db.select().from(outbox).where(eq(outbox.orderId, placed.order.id));
    expect(due?.sendAfter.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("lets a declined payment be retried on the same order, never on a paid one", async () => {
    const token = randomUUID();
    const placed = await placeOrder(database.db, newOrder(token), paying);
    if (placed.kind !== "pay") throw new Error("expected a payment to start");
    const declined = await applyPaymentOutcome(database.db, placed.payment.id, { status: "declined", providerRef: "tgc_y", code: "card_declined" });
    expect(declined.order.status).toBe("payment_failed");
    const retry = await placeOrder(database.db, newOrder(token), paying);
    expect(retry.kind).toBe("pay");
    expect(retry.order).toMatchObject({ id: placed.order.id, status: "pending_payment" });
    if (retry.kind !== "pay") return;
    expect(retry.payment.idempotencyKey).toBe(`order:${placed.order.id}:checkout:2`);
    await applyPaymentOutcome(database.db, retry.payment.id, { status: "succeeded", providerRef: "tgc_z", reusableMethodRef: null });
    expect((await placeOrder(database.db, newOrder(token), paying)).kind).toBe("already_paid");
  });

  it("hands each due e-mail to one worker only, however many claim at once", async () => {
    for (let index = 0; index < 6; index++) {
      await database.db.insert(outbox).values({ kind: "feedback", dedupeKey: `claim-test:${kind}:${index}`, recipient: "a@example.com", locale: "de_DE" });
    }
    const claimed: { id: number; dedupeKey: string }[] = [];
    for (let round = 0; round < 5; round++) {
      const claims = await Promise.all([claimDue(database.db, 50), claimDue(database.db, 50), claimDue(database.db, 50)]);
      claimed.push(...claims.flat());
    }
    const ids = claimed.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(claimed.filter((row) => row.dedupeKey.startsWith(`claim-test:${kind}:`))).toHaveLength(6);
    for (const id of ids) await markSent(database.db, id);
    expect(await claimDue(database.db, 50)).toEqual([]);
  });

  it("stores a withdrawal, links it to the order when number and e-mail agree, and acknowledges it", async () => {
    const placed = await placeOrder(database.db, newOrder(), paying);
    if (placed.kind !== "pay") throw new Error("expected a payment to start");
    await applyPaymentOutcome(database.db, placed.payment.id, { status: "succeeded", providerRef: "tgc_w", reusableMethodRef: null });
    const receipt = await receiveWithdrawal(database.db, { name: "Anna Muster", orderNumber: placed.order.number.toLowerCase(), email: "anna.muster@EXAMPLE.com", locale: "de_DE", market: "DE" });
    expect(receipt.reference).toMatch(/^W-[2-9A-Z]{8}$/);
    const [order] = await database.db.select().from(orders).where(eq(orders.id, placed.order.id));
    expect(order?.status).toBe("withdrawn");
    const unmatched = await receiveWithdrawal(database.db, { name: "Somebody", orderNumber: "VN-2222-2222", email: "x@example.com", locale: "fr_FR", market: "FR" });
    expect(unmatched.reference).not.toBe(receipt.reference);
    const acknowledgements = (await database.db.select().from(outbox)).filter((row) => row.kind === "withdrawal");
    // A matched withdrawal is acknowledged at the order's own address, however the visitor wrote it.
    expect(acknowledgements.map((row) => row.recipient).sort()).toEqual([placed.order.email, "x@example.com"].sort());
    expect(placed.order.email).not.toBe("anna.muster@EXAMPLE.com");
  });

  describe("the test gateway", () => {
    const start = (gateway: TestGateway, number: string, key = randomUUID()) =>
      gateway.startPayment({ idempotencyKey: key, customer: { email: "test@example.com", name: "Test Buyer" }, orderNumber: "VN-TEST-0001", amountMinor: 8970, currency: "EUR", method: "card", details: { number }, saveMethod: true, returnUrl: "/r" });

    it.each([
      ["4242 4242 4242 4242", "succeeded"],
      ["4000 0000 0000 0002", "declined"],
      ["4000 0000 0000 9995", "declined"],
      ["4000 0027 6000 3184", "requires_action"],
      ["4000 0025 0000 3155", "requires_action"],
      ["5555 5555 5555 4444", "declined"],
    ])("answers %s with %s", async (number, status) => {
      expect((await start(new TestGateway(database.db), number)).status).toBe(status);
    });

    it("charges once per idempotency key and refunds no more than was paid", async () => {
      const gateway = new TestGateway(database.db);
      const key = randomUUID();
      const [first, second] = await Promise.all([start(gateway, "4242424242424242", key), start(gateway, "4242424242424242", key)]);
      expect(first.status === "succeeded" && second.status === "succeeded" && first.providerRef === second.providerRef).toBe(true);
      if (first.status !== "succeeded") return;
      const refundKey = randomUUID();
      expect((await gateway.refund({ idempotencyKey: refundKey, providerRef: first.providerRef, amountMinor: 5000 })).status).toBe("succeeded");
      expect((await gateway.refund({ idempotencyKey: refundKey, providerRef: first.providerRef, amountMinor: 5000 })).status).toBe("succeeded");
      expect((await gateway.refund({ idempotencyKey: randomUUID(), providerRef: first.providerRef, amountMinor: 4000 })).status).toBe("failed");
      expect((await gateway.refund({ idempotencyKey: randomUUID(), providerRef: first.providerRef, amountMinor: 3970 })).status).toBe("succeeded");
    });

    it("keeps the card for upsells; 3184 asks again off-session, 3155 only the first time", async () => {
      const gateway = new TestGateway(database.db);
      for (const [number, upsellStatus] of [
        ["4000002760003184", "requires_action"],
        ["4000002500003155", "succeeded"],
      ] as const) {
        const started = await start(gateway, number);
        if (started.status !== "requires_action") throw new Error("expected authentication");
        const approved = await gateway.answer(started.providerRef, true);
        expect(approved?.status).toBe("succeeded");
        const upsell = await gateway.chargeSavedMethod({ idempotencyKey: randomUUID(), orderNumber: "VN-TEST-0001", amountMinor: 990, currency: "EUR", reusableMethodRef: approved?.savedMethodId ?? "", returnUrl: "/r" });
        expect(upsell.status).toBe(upsellStatus);
      }
    });

    it("lets the bank page approve or cancel once", async () => {
      const gateway = new TestGateway(database.db);
      const started = await gateway.startPayment({ idempotencyKey: randomUUID(), customer: { email: "test@example.com", name: "Test Buyer" }, orderNumber: "VN-TEST-0001", amountMinor: 990, currency: "EUR", method: "bank", details: {}, saveMethod: false, returnUrl: "/r" });
      if (started.status !== "requires_action") throw new Error("expected the bank page");
      expect(started.actionUrl).toBe(`/test-gateway/bank/${started.providerRef}`);
      expect((await gateway.answer(started.providerRef, false))?.status).toBe("declined");
      expect((await gateway.answer(started.providerRef, true))?.status).toBe("declined");
      expect(await gateway.retrievePayment(started.providerRef)).toMatchObject({ status: "declined", code: "cancelled" });
    });
  });
});
