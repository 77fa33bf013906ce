import { randomUUID } from "node:crypto";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { refunds } from "../../orders/schema";
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

  it("shows a refund waiting at the provider as pending, not as given back", async () => {
    const { number, orderId, paymentId } = await paidOrder();
    await database.db.insert(refunds).values(refund(orderId, paymentId, "pending"));
    const html = await page(number);
    expect(html).toContain('data-testid="refund-pending"');
    expect(html).not.toContain('data-testid="refund-failed"');
  });
});
