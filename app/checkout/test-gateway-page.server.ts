import { data, redirect } from "react-router";
import { readFormBody } from "../forms/form-body.server";
import { commerceTextsFor } from "../orders/commerce-texts.server";
import { store } from "../store/store.server";
import { marketForCountryCode } from "../market/markets";
import { orderById } from "../orders/order-records.server";
import { payments } from "../orders/schema";
import { eq } from "drizzle-orm";

/**
 * The test gateway's own pages: card authentication and a bank's approval page. They stand where
 * a real provider's pages would, in the buyer's language when the payment belongs to an order.
 */
async function pageFor(chargeId: string) {
  const { db, testGateway: gateway } = store();
  const charge = gateway ? await gateway.charge(chargeId) : undefined;
  const [payment] = charge ? await db.select().from(payments).where(eq(payments.providerRef, charge.id)) : [];
  const order = payment ? await orderById(db, payment.orderId) : undefined;
  return { charge, payment, order };
}

export async function loadGatewayPage(step: string, chargeId: string) {
  const { charge, order } = await pageFor(chargeId);
  const texts = commerceTextsFor(order?.locale ?? "en_GB").gateway;
  const market = order ? marketForCountryCode(order.market) : undefined;
  if (!charge || charge.status !== "requires_action" || (step === "bank") !== (charge.method === "bank")) {
    return data({ texts, charge: null, languageTag: market?.languageTag ?? "en-GB" }, { status: 404 });
  }
  return { texts, charge: { amountMinor: charge.amountMinor, currency: charge.currency, method: charge.method }, languageTag: market?.languageTag ?? "en-GB" };
}

export async function answerGatewayPage(chargeId: string, request: Request) {
  const form = await readFormBody(request);
  const answered = await store().testGateway?.answer(chargeId, form.get("answer") === "approve");
  if (!answered) throw data({ message: "Unknown payment" }, { status: 404 });
  const { payment } = await pageFor(chargeId);
  throw redirect(payment ? `/checkout-return/${payment.id}` : answered.returnUrl);
}

