import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { orderEvents, orderLines, orders, payments, refunds } from "./schema";
import { outbox } from "../mail/schema";
import { testGatewayRefunds } from "../payments/test-gateway/schema";
import type { PaymentProvider, RefundOutcome } from "../payments/provider";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder, testBuyer, testToday } from "../test-support/orders";
import { orderById } from "./order-records.server";
import { applyPaymentOutcome } from "./order-service.server";
import { pollPendingRefunds, previewRefund, refundOrder } from "./refund-service.server";
import { beginUpsell } from "./upsell-service.server";


describe.each(databaseKinds)("refunds on %s", (kind) => {
  const database = useTestDatabase(kind);
  let gateway: TestGateway;
  let providers: Map<string, PaymentProvider>;
  beforeAll(() => {
    gateway = new TestGateway(database.db);
    providers = new Map([["test", gateway]]);
  });

  /** 3 boxes of Shape (89,70 €) paid by card, and the ebook upsell (9,90 €) charged again. */
  async function paidOrderWithUpsell(): Promise<{ orderId: string; lineIds: { checkout: number; upsell: number } }> {
    const placed = await placeTestOrder(database.db);
    const paid = await gateway.startPayment({
      idempotencyKey: placed.payment.idempotencyKey,
      customer: { email: testBuyer.email, name: "Anna Muster" },
      orderNumber: placed.order.number,
      amountMinor: placed.payment.amountMinor,
      currency: "EUR",
      method: "card",
      details: { number: "4242424242424242" },
      saveMethod: true,
      returnUrl: "/r",
    });
    if (paid.status !== "succeeded" || !paid.reusableMethodRef) throw new Error("expected a saved card");
    await applyPaymentOutcome(database.db, placed.payment.id, paid);
    const upsell = await beginUpsell(database.db, placed.order.id, {
      line: { step: "upsell", bundleId: "ebook-1" },
      digitalConsent: true,
      provider: "test",
      method: "card",
      returnPath: "/upsell/de",
      today: testToday,
    });
    if (upsell.kind !== "pay") throw new Error("expected an upsell payment");
    const charged = await gateway.chargeSavedMethod({ idempotencyKey: upsell.payment.idempotencyKey, orderNumber: placed.order.number, amountMinor: 990, currency: "EUR", reusableMethodRef: paid.reusableMethodRef, returnUrl: "/r" });
    await applyPaymentOutcome(database.db, upsell.payment.id, charged);
    const lines = await database.db.select().from(orderLines).where(eq(orderLines.orderId, placed.order.id));
    const idOf = (source: string) => lines.find((line) => line.source === source)?.id ?? -1;
    return { orderId: placed.order.id, lineIds: { checkout: idOf("checkout"), upsell: idOf("upsell:upsell") } };
  }

  const gatewayRefunds = async () => database.db.select().from(testGatewayRefunds);
  const refundMails = async (orderId: string) =>
    database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.orderId, orderId), eq(outbox.kind, "refund")))
      .orderBy(outbox.id);

  /** A provider that refuses to answer (times out) for the payments `down` names, and is the test gateway otherwise. */
  function flakyGateway(down: (providerRef: string) => boolean): PaymentProvider {
    return {
      ...gateway,
      id: "test",
      startPayment: (input) => gateway.startPayment(input),
      retrievePayment: (ref) => gateway.retrievePayment(ref),
      cancelPayment: (ref) => gateway.cancelPayment(ref),
      chargeSavedMethod: (input) => gateway.chargeSavedMethod(input),
      refund: (input) => (down(input.providerRef) ? Promise.reject(new Error("timeout")) : gateway.refund(input)),
    };
  }

  it("refunds one line from the payment that took it, then the rest of the order", async () => {
    const { orderId, lineIds } = await paidOrderWithUpsell();
    const line = await refundOrder(database.db, providers, { orderId, scope: { kind: "lines", lineIds: [lineIds.upsell] }, reason: "not wanted", requestKey: randomUUID() });
    expect(line.kind).toBe("refunded");
    expect(line.kind === "refunded" && line.refunds.map((refund) => refund.amountMinor)).toEqual([990]);
    expect((await orderById(database.db, orderId))?.status).toBe("partially_refunded");
    const restKey = randomUUID();
    const rest = await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: restKey });
    expect(rest.kind === "refunded" && rest.refunds.map((refund) => refund.amountMinor)).toEqual([8970]);
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    // The same request again (a double click) reports the refund it made, though the order is refunded now.
    const again = await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: restKey });
    expect(again.kind === "refunded" && again.refunds.map((refund) => refund.amountMinor)).toEqual([8970]);
    expect(await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "again", requestKey: randomUUID() })).toEqual({ kind: "refused", reason: "nothing_to_refund" });
  });

  it("tells the buyer of each refund once: a line, another line, then the rest of the order", async () => {
    const { orderId, lineIds } = await paidOrderWithUpsell();
    const first = await refundOrder(database.db, providers, { orderId, scope: { kind: "lines", lineIds: [lineIds.upsell] }, reason: "not wanted", requestKey: randomUUID() });
    const [mail, ...more] = await refundMails(orderId);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      kind: "refund",
      dedupeKey: `refund:${first.kind === "refunded" ? first.refunds[0]?.id : "?"}`,
      recipient: testBuyer.email,
      locale: "de_DE",
      status: "pending",
      payload: { amountMinor: 990, lineIds: [lineIds.upsell], fullyRefunded: false, market: "DE" },
    });
    // The rest is the checkout's payment: its line and the delivery, and the order is then refunded in full.
    await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    const mails = await refundMails(orderId);
    expect(mails.map((row) => row.payload)).toEqual([
      expect.objectContaining({ amountMinor: 990, lineIds: [lineIds.upsell], fullyRefunded: false }),
      expect.objectContaining({ amountMinor: 8970, lineIds: [lineIds.checkout], fullyRefunded: true }),
    ]);
    await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "again", requestKey: randomUUID() });
    expect(await refundMails(orderId)).toHaveLength(2);
  });

  it("queues a second e-mail for a refund of another line", async () => {
    const { orderId, lineIds } = await paidOrderWithUpsell();
    await refundOrder(database.db, providers, { orderId, scope: { kind: "lines", lineIds: [lineIds.checkout] }, reason: "damaged", requestKey: randomUUID() });
    await refundOrder(database.db, providers, { orderId, scope: { kind: "lines", lineIds: [lineIds.upsell] }, reason: "not wanted", requestKey: randomUUID() });
    const [checkoutLine] = await database.db.select().from(orderLines).where(eq(orderLines.id, lineIds.checkout));
    const mails = await refundMails(orderId);
    expect(mails.map((row) => row.payload)).toEqual([
      expect.objectContaining({ amountMinor: checkoutLine?.grossMinor, lineIds: [lineIds.checkout], fullyRefunded: false }),
      // Delivery was free: with its last line refunded, the order is refunded in full.
      expect.objectContaining({ amountMinor: 990, lineIds: [lineIds.upsell], fullyRefunded: true }),
    ]);
    expect(new Set(mails.map((row) => row.dedupeKey)).size).toBe(2);
  });

  it("writes nothing to the buyer of an erased order", async () => {
    const { orderId } = await paidOrderWithUpsell();
    await database.db.update(orders).set({ erasedAt: new Date() }).where(eq(orders.id, orderId));
    const result = await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "erased", requestKey: randomUUID() });
    expect(result.kind).toBe("refunded");
    expect(await refundMails(orderId)).toEqual([]);
  });

  it("sends the refund e-mail after an order confirmation that still waits", async () => {
    const { orderId } = await paidOrderWithUpsell();
    await refundOrder(database.db, providers, { orderId, scope: { kind: "order" }, reason: "ordered twice", requestKey: randomUUID() });
    const [confirmation] = await database.db.select().from(outbox).where(eq(outbox.dedupeKey, `order-confirmation:${orderId}`));
    const [mail] = await refundMails(orderId);
    expect(confirmation?.status).toBe("pending");
    expect(mail?.sendAfter.getTime()).toBeGreaterThan(confirmation?.sendAfter.getTime() ?? Infinity);
  });

  it("makes one refund of the same request sent twice at once", async () => {
    const { orderId, lineIds } = await paidOrderWithUpsell();
    const before = (await gatewayRefunds()).length;
    const request = { orderId, scope: { kind: "lines", lineIds: [lineIds.checkout] } as const, reason: "damaged", requestKey: randomUUID() };
    const results = await Promise.all([refundOrder(database.db, providers, request), refundOrder(database.db, providers, request)]);
    expect(results.map((result) => result.kind)).toEqual(["refunded", "refunded"]);
    expect((await gatewayRefunds()).length).toBe(before + 1);
    expect((await orderById(database.db, orderId))?.status).toBe("partially_refunded");
    expect(await refundMails(orderId)).toHaveLength(1);
    // The same request once more, later: it finds its refund settled and tells no one again.
    expect((await refundOrder(database.db, providers, request)).kind).toBe("refunded");
    expect(await refundMails(orderId)).toHaveLength(1);
  });

  it.each([
    ["a line of another order", () => [-1], "unknown_line"],
    ["no line at all", () => [], "nothing_to_refund"],
  ] as const)("refuses %s, changing nothing", async (_, lines, reason) => {
    const { orderId } = await paidOrderWithUpsell();
    const result = await refundOrder(database.db, providers, { orderId, scope: { kind: "lines", lineIds: lines() }, reason: "x", requestKey: randomUUID() });
    expect(result).toEqual({ kind: "refused", reason });
    expect((await orderById(database.db, orderId))?.status).toBe("paid");
    expect(await refundMails(orderId)).toEqual([]);
  });

  it("refuses a line refunded already, and an order never paid", async () => {
    const { orderId, lineIds } = await paidOrderWithUpsell();
    await refundOrder(database.db, providers, { orderId, scope: { kind: "lines", lineIds: [lineIds.upsell] }, reason: "x", requestKey: randomUUID() });
    const again = await refundOrder(database.db, providers, { orderId, scope: { kind: "lines", lineIds: [lineIds.upsell] }, reason: "x", requestKey: randomUUID() });
    expect(again).toEqual({ kind: "refused", reason: "unknown_line" });
    expect(await refundMails(orderId)).toHaveLength(1);
    expect(await refundOrder(database.db, providers, { orderId: randomUUID(), scope: { kind: "order" }, reason: "x", requestKey: randomUUID() })).toEqual({ kind: "refused", reason: "not_paid" });
  });

  it("previews the amount a refund would give back, sending nothing", async () => {
    const { orderId, lineIds } = await paidOrderWithUpsell();
    const refundsBefore = (await gatewayRefunds()).length;
    expect(await previewRefund(database.db, orderId, { kind: "lines", lineIds: [lineIds.upsell] })).toEqual({ kind: "due", amountMinor: 990, lineIds: [lineIds.upsell] });
    expect(await previewRefund(database.db, orderId, { kind: "order" })).toEqual({ kind: "due", amountMinor: 8970 + 990, lineIds: [lineIds.checkout, lineIds.upsell].sort((a, b) => a - b) });
    expect(await gatewayRefunds()).toHaveLength(refundsBefore);
    expect((await orderById(database.db, orderId))?.status).toBe("paid");
    await refundOrder(database.db, providers, { orderId, scope: { kind: "lines", lineIds: [lineIds.upsell] }, reason: "x", requestKey: randomUUID() });
    expect(await previewRefund(database.db, orderId, { kind: "lines", lineIds: [lineIds.upsell] })).toEqual({ kind: "refused", reason: "unknown_line" });
    expect(await previewRefund(database.db, orderId, { kind: "order" })).toEqual({ kind: "due", amountMinor: 8970, lineIds: [lineIds.checkout] });
    expect(await previewRefund(database.db, randomUUID(), { kind: "order" })).toEqual({ kind: "refused", reason: "not_paid" });
  });

  it("finishes with the same key when the provider could not be reached the first time", async () => {
    const { orderId, lineIds } = await paidOrderWithUpsell();
    let down = true;
    const flaky = flakyGateway(() => down);
    const request = { orderId, scope: { kind: "order" } as const, reason: "withdrawal", requestKey: randomUUID() };
    expect((await refundOrder(database.db, new Map([["test", flaky]]), request)).kind).toBe("incomplete");
    expect((await orderById(database.db, orderId))?.status).toBe("paid");
    expect(await refundMails(orderId)).toEqual([]);
    down = false;
    expect((await refundOrder(database.db, new Map([["test", flaky]]), request)).kind).toBe("refunded");
    expect((await orderById(database.db, orderId))?.status).toBe("refunded");
    const mails = await refundMails(orderId);
    expect(mails.map((row) => row.payload)).toEqual([expect.objectContaining({ amountMinor: 8970 + 990, lineIds: [lineIds.checkout, lineIds.upsell].sort((a, b) => a - b), fullyRefunded: true })]);
  });

  it("tells the buyer of the part that succeeded, and of the rest when the same key finishes it", async () => {
    const { orderId, lineIds } = await paidOrderWithUpsell();
    const [upsellPayment] = await database.db.select().from(payments).where(and(eq(payments.orderId, orderId), eq(payments.purpose, "upsell:upsell")));
    let down = true;
    const flaky = flakyGateway((ref) => down && ref === upsellPayment?.providerRef);
    const request = { orderId, scope: { kind: "order" } as const, reason: "withdrawal", requestKey: randomUUID() };
    expect((await refundOrder(database.db, new Map([["test", flaky]]), request)).kind).toBe("incomplete");
    expect((await refundMails(orderId)).map((row) => row.payload)).toEqual([expect.objectContaining({ amountMinor: 8970, lineIds: [lineIds.checkout], fullyRefunded: false })]);
    down = false;
    expect((await refundOrder(database.db, new Map([["test", flaky]]), request)).kind).toBe("refunded");
    expect((await refundMails(orderId)).map((row) => row.payload)).toEqual([
      expect.objectContaining({ amountMinor: 8970, lineIds: [lineIds.checkout], fullyRefunded: false }),
      expect.objectContaining({ amountMinor: 990, lineIds: [lineIds.upsell], fullyRefunded: true }),
    ]);
    await refundOrder(database.db, new Map([["test", flaky]]), request);
    expect(await refundMails(orderId)).toHaveLength(2);
  });

  /** The test gateway, except that its refunds are taken as pending and end as `ending` says when asked. */
  function slowRefunds(ending: () => RefundOutcome): PaymentProvider & { asked: string[] } {
    const asked: string[] = [];
    return {
      ...flakyGateway(() => false),
      asked,
      refund: async (input) => {
        const done = await gateway.refund(input);
        return done.status === "succeeded" ? { status: "pending", refundRef: done.refundRef } : done;
      },
      retrieveRefund: (refundRef) => (asked.push(refundRef), Promise.resolve(ending())),
    };
  }

  it.each([
    ["completed", "refunded", [9960]],
    ["failed", "paid", []],
  ] as const)("asks the provider about refunds still pending, and one that %s leaves the order %s", async (ending, status, mails) => {
    const { orderId } = await paidOrderWithUpsell();
    let outcome: RefundOutcome = { status: "pending", refundRef: "" };
    const slow = slowRefunds(() => outcome);
    const result = await refundOrder(database.db, new Map([["test", slow]]), { orderId, scope: { kind: "order" }, reason: "withdrawal", requestKey: randomUUID() });
    expect(result.kind).toBe("incomplete");
    const pending = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(pending.map((row) => row.status)).toEqual(["pending", "pending"]);

    // Too young to ask about yet.
    await pollPendingRefunds(database.db, new Map([["test", slow]]), { olderThanMs: 60_000 });
    expect(slow.asked).toEqual([]);
    // Still pending at the provider: nothing changes.
    await pollPendingRefunds(database.db, new Map([["test", slow]]), { olderThanMs: 0 });
    expect(slow.asked.sort()).toEqual(pending.map((row) => row.providerRef).sort());
    expect((await orderById(database.db, orderId))?.status).toBe("paid");

    outcome = ending === "completed" ? { status: "succeeded", refundRef: "" } : { status: "failed", reason: "PayPal refund is FAILED" };
    await pollPendingRefunds(database.db, new Map([["test", slow]]), { olderThanMs: 0 });
    await pollPendingRefunds(database.db, new Map([["test", slow]]), { olderThanMs: 0 });
    expect((await orderById(database.db, orderId))?.status).toBe(status);
    const rows = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(rows.map((row) => row.status)).toEqual(ending === "completed" ? ["succeeded", "succeeded"] : ["failed", "failed"]);
    if (ending === "failed") expect(rows.map((row) => row.failureReason)).toEqual(["PayPal refund is FAILED", "PayPal refund is FAILED"]);
    expect((await refundMails(orderId)).reduce((sum, row) => sum + Number(row.payload.amountMinor), 0)).toBe(mails[0] ?? 0);
    const failedEvents = await database.db.select().from(orderEvents).where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.type, "refund_failed")));
    expect(failedEvents).toHaveLength(ending === "failed" ? 2 : 0);
  });
});
