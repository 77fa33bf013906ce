import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createCode, issueWelcomeCode } from "../codes/codes.server";
import { paidTestOrder } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder, testToday } from "../test-support/orders";
import { listCodesWithFigures } from "./code-figures.server";
import { reserveCode, settleRedemption } from "./code-redemptions.server";
import { orders, payments, refunds } from "./schema";
import { codeTerms } from "../test-support/code-terms";


describe.each(databaseKinds)("the figures of the code list on %s", (kind) => {
  const database = useTestDatabase(kind);

  /** Reserves `code` for the order as its buyer `email` places it, then keeps or releases it. */
  async function redeem(orderId: string, code: string, email: string, outcome: "kept" | "released" | null) {
    const reserved = await database.db.transaction((tx) => reserveCode(tx, { code, email, country: "DE", currency: "EUR", linesMinor: 8970, now: testToday, orderId }));
    expect(reserved.ok).toBe(true);
    if (outcome) await database.db.transaction((tx) => settleRedemption(tx, orderId, outcome, testToday));
  }

  async function refund(orderId: string, amountMinor: number, status: "succeeded" | "failed") {
    const [payment] = await database.db.select().from(payments).where(eq(payments.orderId, orderId));
    if (!payment) throw new Error("the order has no payment");
    await database.db.insert(refunds).values({ id: randomUUID(), orderId, paymentId: payment.id, amountMinor, reason: "test", status, idempotencyKey: randomUUID() });
  }

  it("counts kept and reserved redemptions apart, and the discount and net revenue of paid orders per code", async () => {
    await createCode(database.db, codeTerms("TENOFF"));
    await createCode(database.db, codeTerms("FIVEOFF", { reduction: { kind: "amount", amountMinor: { EUR: 500 } }, oncePerCustomer: false }));
    await createCode(database.db, codeTerms("UNUSED"));

    const paid = await paidTestOrder(database.db, { contact: { email: "paid@example.com" } });
    await redeem(paid.order.id, "TENOFF", "paid@example.com", "kept");
    // What the order's refunds gave back comes off its revenue; a failed refund gave nothing back.
    await refund(paid.order.id, 1000, "succeeded");
    await refund(paid.order.id, 2000, "failed");
    const open = await placeTestOrder(database.db);
    await redeem(open.order.id, "TENOFF", "open@example.com", null);
    const released = await placeTestOrder(database.db);
    await redeem(released.order.id, "TENOFF", "gone@example.com", "released");

    const sold = await paidTestOrder(database.db, { contact: { email: "one@example.com" } });
    const calledOff = await paidTestOrder(database.db, { contact: { email: "two@example.com" } });
    for (const { order } of [sold, calledOff]) await redeem(order.id, "FIVEOFF", order.email, "kept");
    // An order called off after its payment was no sale, as the funnel report counts sales.
    await database.db.update(orders).set({ status: "cancelled" }).where(eq(orders.id, calledOff.order.id));

    const list = await listCodesWithFigures(database.db, { includeTest: true });
    const figures = Object.fromEntries(list.codes.map((listed) => [listed.code.code, listed.figures]));
    expect(figures).toMatchObject({
      TENOFF: { kept: 1, reserved: 1, money: [{ currency: "EUR", discountMinor: 897, netRevenueMinor: paid.order.totalMinor - 1000 }] },
      FIVEOFF: { kept: 2, reserved: 0, money: [{ currency: "EUR", discountMinor: 500, netRevenueMinor: sold.order.totalMinor }] },
      UNUSED: { kept: 0, reserved: 0, money: [] },
    });
    expect(paid.order.totalMinor).toBe(8970);
  });

  it("sums welcome codes in one row instead of listing them, and leaves test orders out unless asked", async () => {
    const first = await issueWelcomeCode(database.db, testToday);
    await issueWelcomeCode(database.db, testToday);
    await createCode(database.db, codeTerms("LISTED"));
    // A first order: reserved while placed, kept once paid.
    const placed = await placeTestOrder(database.db);
    await redeem(placed.order.id, first.code, placed.order.email, "kept");
    await database.db.update(orders).set({ status: "paid", paidAt: testToday }).where(eq(orders.id, placed.order.id));

    const list = await listCodesWithFigures(database.db, { includeTest: true });
    // Newest first, and no welcome code among them (the file's tests share one database).
    const listed = list.codes.map((entry) => entry.code.code);
    expect(listed[0]).toBe("LISTED");
    expect(listed.filter((code) => code.startsWith("HELLO"))).toEqual([]);
    expect(list.welcome).toEqual({ issued: 2, kept: 1, reserved: 0, money: [{ currency: "EUR", discountMinor: 897, netRevenueMinor: 8970 }] });

    const live = await listCodesWithFigures(database.db, { includeTest: false });
    expect(live.welcome).toEqual({ issued: 2, kept: 0, reserved: 0, money: [] });
  });
});
