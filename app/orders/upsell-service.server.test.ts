import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orderLines, orders, payments } from "./schema";
import { outbox } from "../mail/schema";
import { marketFor, type CountryCode } from "../market/markets";
import type { Database } from "../db/database.server";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder, testToday } from "../test-support/orders";
import { orderById } from "./order-records.server";
import { applyPaymentOutcome, endFunnel } from "./order-service.server";
import { quoteLine } from "./quote.server";
import { beginUpsell, upsellState } from "./upsell-service.server";

const ebook = { step: "upsell", bundleId: "ebook-1" };

async function paidOrderId(database: { readonly db: Database }, country: CountryCode = "DE"): Promise<string> {
  const { order, payment } = await placeTestOrder(database.db, "test", country);
  await applyPaymentOutcome(database.db, payment.id, { status: "succeeded", providerRef: "tgc_1", reusableMethodRef: "tgm_1" });
  return order.id;
}

const accepting = { line: ebook, digitalConsent: true, provider: "test", method: "card", returnPath: "/upsell/de", today: testToday };

describe.each(databaseKinds)("upsells on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("opens one payment for acceptances sent at once, and adds one line with the totals when it succeeds", async () => {
    const orderId = await paidOrderId(database);
    const answers = await Promise.all([1, 2, 3].map(() => beginUpsell(database.db, orderId, accepting)));
    expect(answers.map((answer) => answer.kind).sort()).toEqual(["in_progress", "in_progress", "pay"]);
    const paying = answers.find((answer) => answer.kind === "pay");
    if (paying?.kind !== "pay") throw new Error("expected a payment");
    expect(paying.payment).toMatchObject({ amountMinor: 990, purpose: "upsell:upsell", idempotencyKey: `order:${orderId}:upsell:upsell:1` });
    const outcome = { status: "succeeded", providerRef: "tgc_2", reusableMethodRef: null } as const;
    await Promise.all([applyPaymentOutcome(database.db, paying.payment.id, outcome), applyPaymentOutcome(database.db, paying.payment.id, outcome)]);
    const order = await orderById(database.db, orderId);
    expect(order).toMatchObject({ status: "paid", itemsMinor: 8970 + 990, totalMinor: 8970 + 990 });
    const lines = await database.db.select().from(orderLines).where(eq(orderLines.orderId, orderId));
    expect(lines.map((line) => [line.source, line.kind, line.grossMinor, line.digitalConsentAt !== null])).toEqual([
      ["checkout", "supplement", 8970, false],
      ["upsell:upsell", "digital", 990, true],
    ]);
    if (!order) throw new Error("order vanished");
    expect(await upsellState(database.db, order, "upsell")).toBe("accepted");
    expect((await beginUpsell(database.db, orderId, accepting)).kind).toBe("accepted");
  });

  it("leaves the order as it was when the upsell's payment fails, and lets the buyer try again", async () => {
    const orderId = await paidOrderId(database);
    const first = await beginUpsell(database.db, orderId, accepting);
    if (first.kind !== "pay") throw new Error("expected a payment");
    await applyPaymentOutcome(database.db, first.payment.id, { status: "declined", providerRef: "tgc_3", code: "authentication_failed" });
    expect(await orderById(database.db, orderId)).toMatchObject({ status: "paid", totalMinor: 8970 });
    const again = await beginUpsell(database.db, orderId, accepting);
    expect(again.kind === "pay" && again.payment.idempotencyKey).toBe(`order:${orderId}:upsell:upsell:2`);
  });

  it("holds the confirmation back while an upsell is paid, and closes upsells once the funnel ended", async () => {
    const orderId = await paidOrderId(database);
    const dueBefore = (await database.db.select().from(outbox).where(eq(outbox.orderId, orderId)))[0]?.sendAfter.getTime() ?? 0;
    await database.db.update(outbox).set({ sendAfter: new Date(Date.now() + 1000) }).where(eq(outbox.orderId, orderId));
    const begun = await beginUpsell(database.db, orderId, { ...accepting, line: { ...ebook, step: "upsellMind" } });
    expect(begun.kind).toBe("pay");
    const held = (await database.db.select().from(outbox).where(eq(outbox.orderId, orderId)))[0]?.sendAfter.getTime() ?? 0;
    expect(held).toBeGreaterThan(Date.now() + 10 * 60 * 1000);
    expect(dueBefore).toBeGreaterThan(0);
    await endFunnel(database.db, orderId);
    expect((await beginUpsell(database.db, orderId, accepting)).kind).toBe("closed");
  });

  it.each([
    ["DK", "collagen-upsell", "collagen-1"],
    ["DE", "collagen-upsell", "collagen-1"],
    ["SE", "upsell", "ebook-1"],
    ["GB", "upsellMind", "mind-1"],
    ["CH-FR", "detolex-upsell", "detolex-1"],
  ] as const)("prices an upsell for a %s order in that order's own market, currency and VAT (%s)", async (country, step, bundleId) => {
    const orderId = await paidOrderId(database, country);
    const begun = await beginUpsell(database.db, orderId, { ...accepting, line: { step, bundleId } });
    if (begun.kind !== "pay") throw new Error("expected a payment");
    const own = quoteLine(marketFor(country), bundleId, testToday);
    expect(begun.payment).toMatchObject({ amountMinor: own.grossMinor, currency: marketFor(country).currency });
    expect(begun.payment.upsellLine).toMatchObject({ grossMinor: own.grossMinor, vatMinor: own.vatMinor, vatRateBp: own.vatRateBp });
  });

  it("offers nothing to an order that is not paid", async () => {
    const orderId = await paidOrderId(database);
    await database.db.update(orders).set({ status: "refunded" }).where(eq(orders.id, orderId));
    expect((await beginUpsell(database.db, orderId, accepting)).kind).toBe("closed");
    const opened = await database.db.select().from(payments).where(and(eq(payments.orderId, orderId), eq(payments.purpose, "upsell:upsell")));
    expect(opened).toEqual([]);
  });
});
