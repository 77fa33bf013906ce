import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { operators } from "../operators/schema";
import { orderLines, orders } from "../orders/schema";
import { marketFor } from "../market/markets";
import type { Operator } from "../operators/audit.server";
import type { Order, OrderLine } from "../orders/order-records.server";
import { applyPaymentOutcome, endFunnel, placeOrder, type Contact } from "../orders/order-service.server";
import { quoteCheckout, quoteLine } from "../orders/quote.server";
import { beginUpsell } from "../orders/upsell-service.server";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { testBuyer, testToday } from "./orders";

/** An operator account of its own for a test, stored so that audit rows can refer to it. */
export async function testOperator(db: Database, role: Operator["role"] = "support"): Promise<Operator> {
  const operator: Operator = { id: randomUUID(), email: `operator-${randomUUID().slice(0, 8)}@example.com`, role };
  await db.insert(operators).values({ ...operator, passwordHash: "not a hash: this account never logs in" });
  return operator;
}

export interface PaidTestOrder {
  order: Order;
  /** The order's lines in the order they were added: the checkout's first, then each upsell's. */
  lines: OrderLine[];
}

/**
 * An order paid by card through the test gateway as a buyer pays one: 3 boxes of Shape in Germany,
 * then each upsell bundle accepted and charged to the saved card, then (unless told otherwise) the
 * funnel ended. The contact is the test buyer's with any field replaced.
 */
export async function paidTestOrder(
  db: Database,
  options: { contact?: Partial<Contact>; upsells?: readonly string[]; endFunnel?: boolean; test?: boolean } = {},
): Promise<PaidTestOrder> {
  const market = marketFor("DE");
  const quote = quoteCheckout(market, "shape-3", testToday);
  if (!quote) throw new Error("shape-3 is not for sale");
  const gateway = new TestGateway(db);
  const placed = await placeOrder(
    db,
    {
      checkoutToken: randomUUID(),
      market: "DE",
      locale: "de_DE",
      currency: "EUR",
      contact: { ...testBuyer, ...options.contact },
      lines: quote.lines,
      totals: quote.totals,
      funnelSrc: null,
      test: options.test ?? true,
      digitalConsent: false,
    },
    { provider: "test", method: "card", returnPath: "/checkout/de?bundle=shape-3" },
  );
  if (placed.kind !== "pay") throw new Error("expected a payment");
  const paid = await gateway.startPayment({
    idempotencyKey: placed.payment.idempotencyKey,
    customer: { email: placed.order.email, name: "Test Buyer" },
    orderNumber: placed.order.number,
    amountMinor: placed.payment.amountMinor,
    currency: "EUR",
    method: "card",
    details: { number: "4242424242424242" },
    saveMethod: true,
    returnUrl: "/r",
  });
  if (paid.status !== "succeeded" || !paid.reusableMethodRef) throw new Error("expected a saved card");
  await applyPaymentOutcome(db, placed.payment.id, paid);
  for (const [index, bundle] of (options.upsells ?? []).entries()) {
    const digital = quoteLine(market, bundle, testToday).kind === "digital";
    const step = `upsell-${index + 1}`;
    const upsell = await beginUpsell(db, placed.order.id, { line: { step, bundleId: bundle }, digitalConsent: digital, provider: "test", method: "card", returnPath: `/${step}/de`, today: testToday });
    if (upsell.kind !== "pay") throw new Error(`expected a payment for the upsell ${bundle}`);
    const charged = await gateway.chargeSavedMethod({
      idempotencyKey: upsell.payment.idempotencyKey,
      orderNumber: placed.order.number,
      amountMinor: upsell.payment.amountMinor,
      currency: "EUR",
      reusableMethodRef: paid.reusableMethodRef,
      returnUrl: "/r",
    });
    await applyPaymentOutcome(db, upsell.payment.id, charged);
  }
  if (options.endFunnel ?? true) await endFunnel(db, placed.order.id);
  const [order] = await db.select().from(orders).where(eq(orders.id, placed.order.id));
  if (!order) throw new Error("The paid test order vanished");
  const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id)).orderBy(asc(orderLines.id));
  return { order, lines };
}
