import { randomUUID } from "node:crypto";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { refunds } from "../../db/schema";
import { applyPaymentOutcome } from "../../orders/order-service.server";
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

  it("shows a refund waiting at the provider as pending, not as given back", async () => {
    const { number, orderId, paymentId } = await paidOrder();
    await database.db.insert(refunds).values(refund(orderId, paymentId, "pending"));
    const html = await page(number);
    expect(html).toContain('data-testid="refund-pending"');
    expect(html).not.toContain('data-testid="refund-failed"');
  });
});
