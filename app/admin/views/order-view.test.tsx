import { randomUUID } from "node:crypto";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { payments, refunds } from "../../orders/schema";
import { closeDispute, openDispute } from "../../orders/disputes.server";
import { applyPaymentOutcome, endFunnel } from "../../orders/order-service.server";
import { useTestDatabase } from "../../test-support/databases";
import { placeTestOrder } from "../../test-support/orders";
import { orderDetail } from "../order-queries.server";
import { OrderView } from "./order-view";

const owner = { id: "op-1", email: "owner@example.com", role: "owner" as const };

describe("an order's back-office page", () => {
  const database = useTestDatabase("pglite");

  async function paidOrder(): Promise<{ number: string; orderId: string; paymentId: string }> {
    const placed = await placeTestOrder(database.db);
    await applyPaymentOutcome(database.db, placed.payment.id, { status: "succeeded", providerRef: `pay_${randomUUID()}`, reusableMethodRef: null });
    return { number: placed.order.number, orderId: placed.order.id, paymentId: placed.payment.id };
  }

  async function page(number: string): Promise<string> {
    const detail = await orderDetail(database.db, number);
    if (!detail) throw new Error("no order");
    return renderToString(<OrderView operator={owner} detail={detail} refundKey="key" />);
  }

  const refund = (orderId: string, paymentId: string, status: "pending" | "failed", failureReason: string | null = null) => ({
    id: randomUUID(),
    orderId,
    paymentId,
    amountMinor: 8970,
    reason: "Withdrawal",
    status,
    idempotencyKey: randomUUID(),
    providerRef: `REF${randomUUID()}`,
    failureReason,
  });

  it("shows a refund the provider failed as failed, with the provider's reason, and leaves it refundable", async () => {
    const { number, orderId, paymentId } = await paidOrder();
    await database.db.insert(refunds).values(refund(orderId, paymentId, "failed", "PayPal refund 1AB is FAILED"));
    const html = await page(number);
    expect(html).toContain('data-testid="refund-failed"');
    expect(html).toContain("PayPal refund 1AB is FAILED");
    expect(html).toContain('data-testid="admin-refund"');
  });

  it("shows an open dispute and no fulfilment button until the dispute is closed, then its outcome", async () => {
    const { number, paymentId } = await paidOrder();
    await endFunnel(database.db, (await orderDetail(database.db, number))?.order.id ?? "");
    expect(await page(number)).toContain("Mark fulfilled with the parcel");
    await openDispute(database.db, paymentId, "dp_123");
    const held = await page(number);
    expect(held).toContain('data-dispute-status="open"');
    expect(held).toContain("dp_123");
    expect(held).not.toContain("Mark fulfilled with the parcel");
    await closeDispute(database.db, paymentId, "dp_123", "won");
    const closed = await page(number);
    expect(closed).not.toContain('data-dispute-status="open"');
    expect(closed).toContain('data-dispute-status="closed"');
    expect(closed).toContain("won");
    expect(closed).toContain("Mark fulfilled with the parcel");
  });

  it.each(["lost", "RESOLVED_BUYER_FAVOUR"])("shows a dispute closed %s as lost, and keeps the order held without a fulfilment button", async (outcome) => {
    const { number, paymentId } = await paidOrder();
    await endFunnel(database.db, (await orderDetail(database.db, number))?.order.id ?? "");
    const disputeRef = `dp_${randomUUID()}`;
    await openDispute(database.db, paymentId, disputeRef);
    await closeDispute(database.db, paymentId, disputeRef, outcome);
    const lost = await page(number);
    expect(lost).toContain('data-dispute-status="lost"');
    expect(lost).toMatch(/Dispute lost/);
    expect(lost).not.toContain('data-dispute-status="closed"');
    expect(lost).not.toContain("Mark fulfilled with the parcel");
  });

  /** A paid order whose earlier attempt (at the bank) was charged after the buyer had paid by card, and the store's refund of that charge. */
  async function orderWithStrayCharge(status: "pending" | "succeeded" | "failed", failureReason: string | null = null): Promise<{ number: string; refundRef: string }> {
    const { number, orderId } = await paidOrder();
    const strayId = randomUUID();
    const refundRef = `tgr_${randomUUID()}`;
    await database.db.insert(payments).values({
      id: strayId,
      orderId,
      provider: "test",
      method: "bank",
      purpose: "checkout",
      status: "cancelled",
      amountMinor: 8970,
      currency: "EUR",
      idempotencyKey: randomUUID(),
      providerRef: `tgc_${randomUUID()}`,
      returnPath: "/checkout/de?bundle=shape-3",
      supersededAt: new Date(),
      strayRefundRef: status === "failed" ? null : refundRef,
    });
    await database.db.insert(refunds).values({
      ...refund(orderId, strayId, "pending", failureReason),
      status,
      kind: "stray",
      reason: "charged after the buyer paid another way",
      providerRef: status === "failed" ? null : refundRef,
    });
    return { number, refundRef };
  }

  it("shows a stray charge refunded at once on its payment's row, and no alert", async () => {
    const { number, refundRef } = await orderWithStrayCharge("succeeded");
    const html = await page(number);
    expect(html).toContain(`charged anyway, refunded at once (${refundRef})`);
    expect(html).not.toContain('data-testid="stray-refund-failed"');
    expect(html).not.toContain('data-testid="refund-failed"');
    // Not a refund of the order: what the order took stays refundable.
    expect(html).toContain('data-testid="admin-refund"');
  });

  it("shows the refund of a stray charge still at the provider as pending on its payment's row, not as the order's refund", async () => {
    const { number, refundRef } = await orderWithStrayCharge("pending");
    const html = await page(number);
    expect(html).toContain(`charged anyway, refund pending at the provider (${refundRef})`);
    expect(html).not.toContain('data-testid="refund-pending"');
    expect(html).not.toContain('data-testid="stray-refund-failed"');
  });

  it("alerts the operator to give back a stray charge whose refund failed, with the provider's reason", async () => {
    const { number } = await orderWithStrayCharge("failed", "the bank account is closed");
    const html = await page(number);
    expect(html).toContain('data-testid="stray-refund-failed"');
    expect(html).toContain("the bank account is closed");
    expect(html).toContain("A payment the customer had not wanted to make");
    expect(html).toContain("charged anyway, and the refund FAILED: give the money back");
    // The order's own refunds have their own alert; this is not one of them.
    expect(html).not.toContain('data-testid="refund-failed"');
  });

  it("shows a refund waiting at the provider as pending, not as given back", async () => {
    const { number, orderId, paymentId } = await paidOrder();
    await database.db.insert(refunds).values(refund(orderId, paymentId, "pending"));
    const html = await page(number);
    expect(html).toContain('data-testid="refund-pending"');
    expect(html).not.toContain('data-testid="refund-failed"');
  });
});
