import { randomUUID } from "node:crypto";
import type { Database } from "../db/database.server";
import { marketFor, type CountryCode } from "../market/markets";
import type { Order, Payment } from "../orders/order-records.server";
import { placeOrder, type Contact } from "../orders/order-service.server";
import { quoteCheckout } from "../orders/quote.server";

export const testToday = new Date("2026-11-23T12:00:00Z");

export const testBuyer: Contact = {
  email: "a@example.com",
  givenName: "Anna",
  familyName: "Muster",
  addressLine1: "Hauptstraße 1",
  addressLine2: "",
  postalCode: "10115",
  city: "Berlin",
  country: "DE",
  phone: "",
};

/** A checkout for 3 boxes of Shape (in Germany 89,70 €, or in another market's price), placed with its first payment open. */
export async function placeTestOrder(db: Database, provider = "test", country: CountryCode = "DE"): Promise<{ order: Order; payment: Payment }> {
  const market = marketFor(country);
  const quote = quoteCheckout(market, "shape-3", testToday);
  if (!quote) throw new Error("shape-3 is not for sale");
  const placed = await placeOrder(
    db,
    {
      checkoutToken: randomUUID(),
      market: market.country,
      locale: market.locale,
      currency: market.currency,
      contact: { ...testBuyer, country: market.country },
      lines: quote.lines,
      totals: quote.totals,
      funnelSrc: null,
      test: true,
      digitalConsent: false,
    },
    { provider, method: "card", returnPath: "/checkout/de?bundle=shape-3" },
  );
  if (placed.kind !== "pay") throw new Error("expected a payment");
  return { order: placed.order, payment: placed.payment };
}
