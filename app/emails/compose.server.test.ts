import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import site from "../../content/site.json";
import { orderLines } from "../orders/schema";
import { outbox } from "../mail/schema";
import { marketFor, markets, type CountryCode, type Market } from "../market/markets";
import { formatMoney } from "../market/money";
import { applyPaymentOutcome, placeOrder } from "../orders/order-service.server";
import { orderTotals } from "../orders/pricing";
import { quoteCheckout } from "../orders/quote.server";
import { refundOrder, type RefundScope } from "../orders/refund-service.server";
import type { PaymentProvider } from "../payments/provider";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { useTestDatabase } from "../test-support/databases";
import { testBuyer, testToday } from "../test-support/orders";
import { composeMail } from "./compose.server";

const context = { from: "Store <shop@example.com>", publicUrl: "https://shop.example", signingKey: "test-signing-key" };

/** Spaces as `Intl` writes them (no-break, narrow no-break) read as plain ones. */
const plain = (text: string) => text.replace(/\s/g, " ");

describe("the refund e-mail", () => {
  const database = useTestDatabase("pglite");
  let gateway: TestGateway;
  let providers: Map<string, PaymentProvider>;
  beforeAll(() => {
    gateway = new TestGateway(database.db);
    providers = new Map([["test", gateway]]);
  });

  /** A paid order of one bundle in a market, bought by the test buyer with a test card; delivery as the market charges it unless given. */
  async function paidOrder(country: CountryCode, bundleId: string, options: { test?: boolean; deliveryMinor?: number } = {}) {
    const market = marketFor(country);
    const quote = quoteCheckout(market, bundleId, testToday);
    if (!quote) throw new Error(`${bundleId} is not for sale`);
    const totals = options.deliveryMinor === undefined ? quote.totals : orderTotals(quote.lines, options.deliveryMinor);
    const placed = await placeOrder(
      database.db,
      { checkoutToken: randomUUID(), market: market.country, locale: market.locale, currency: market.currency, contact: testBuyer, lines: quote.lines, totals, funnelSrc: null, test: options.test ?? true, digitalConsent: false },
      { provider: "test", method: "card", returnPath: "/r" },
    );
    if (placed.kind !== "pay") throw new Error("expected a payment");
    const paid = await gateway.startPayment({
      idempotencyKey: placed.payment.idempotencyKey,
      customer: { email: testBuyer.email, name: "Anna Muster" },
      orderNumber: placed.order.number,
      amountMinor: placed.payment.amountMinor,
      currency: market.currency,
      method: "card",
      details: { number: "4242424242424242" },
      saveMethod: false,
      returnUrl: "/r",
    });
    await applyPaymentOutcome(database.db, placed.payment.id, paid);
    const [line] = await database.db.select().from(orderLines).where(eq(orderLines.orderId, placed.order.id));
    if (!line) throw new Error("expected a line");
    return { market, order: placed.order, line };
  }

  /** Refunds `scope` and composes the refund e-mail it queued. */
  async function refundAndCompose(orderId: string, scope: RefundScope) {
    const result = await refundOrder(database.db, providers, { orderId, scope, reason: "test", requestKey: randomUUID() });
    if (result.kind !== "refunded") throw new Error(`expected a refund, got ${result.kind}`);
    const [row] = await database.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.kind, "refund"), eq(outbox.dedupeKey, `refund:${result.refunds.map((refund) => refund.id).sort()[0]}`)));
    if (!row) throw new Error("expected a refund e-mail");
    const mail = await composeMail(row, { db: database.db, ...context });
    if (!mail) throw new Error("expected a message");
    return { mail, text: plain(mail.text), html: plain(mail.html) };
  }

  const money = (minor: number, market: Market) => plain(formatMoney(minor, market));

  it("names the line and the amount of a partial refund in German, then the delivery when the rest is refunded", async () => {
    const { market, order, line } = await paidOrder("DE", "shape-1", { deliveryMinor: 495 });
    const partial = await refundAndCompose(order.id, { kind: "lines", lineIds: [line.id] });
    expect(partial.mail.to).toBe(testBuyer.email);
    expect(partial.mail.subject).toBe(`Erstattung zu Ihrer ${site.brand}-Bestellung ${order.number}`);
    for (const part of [partial.text, partial.html]) {
      expect(part).toContain(`Hallo ${testBuyer.givenName},`);
      expect(part).toContain(`wir haben Ihnen ${money(line.grossMinor, market)} für Ihre Bestellung ${order.number} erstattet.`);
      expect(part).toContain(`${line.productName} – 1 Packung`);
      expect(part).toContain("Teilerstattung");
      expect(part).toContain("5 bis 10 Werktagen");
      expect(part).toContain("Testmodus");
    }
    expect(partial.text).toMatch(new RegExp(`Erstatteter Betrag: ${money(line.grossMinor, market)}`));
    expect(partial.html).toContain('<html lang="de-DE">');

    const rest = await refundAndCompose(order.id, { kind: "order" });
    expect(rest.text).toContain(`Versand: ${money(order.deliveryMinor, market)}`);
    expect(rest.text).toContain(`Erstatteter Betrag: ${money(order.deliveryMinor, market)}`);
    expect(rest.text).toContain("vollständig erstattet");
    expect(rest.text).not.toContain(line.productName);
  });

  it.each([
    ["DE", "Vitanor Everyday Recipes (E-Book) – Digitaler Artikel"],
    ["SE", "Vitanor Everyday Recipes (e-bok)"],
  ] as const)("names a digital product in the buyer's language (%s)", async (country, name) => {
    const { order } = await paidOrder(country, "ebook-1");
    const { text, html } = await refundAndCompose(order.id, { kind: "order" });
    for (const part of [text, html]) {
      expect(part).toContain(name);
      expect(part).not.toContain("Everyday Recipes ebook");
    }
  });

  it("names the lines and the amount of a whole-order refund in French", async () => {
    const { market, order, line } = await paidOrder("FR", "shape-3", { test: false });
    const { mail, text, html } = await refundAndCompose(order.id, { kind: "order" });
    expect(plain(mail.subject)).toBe(`Remboursement de votre commande ${site.brand} n° ${order.number}`);
    const amount = money(order.totalMinor, market);
    for (const part of [text, html]) {
      expect(part).toContain(`Nous vous avons remboursé ${amount} pour votre commande n° ${order.number}.`);
      expect(part).toContain(`${line.productName} – 3 boîtes`);
      expect(part).toContain("intégralement remboursée");
      expect(part).toContain("5 à 10 jours ouvrés");
      expect(part).not.toContain("Mode test");
    }
    expect(text).toContain(`Total remboursé: ${amount}`);
    expect(html).toContain('<html lang="fr-FR">');
    expect(html).toMatch(/^<!DOCTYPE html>/);
  });

  it.each(markets.map((market) => [market.country, market] as const))("composes in the language and currency of %s", async (country, market) => {
    const { order } = await paidOrder(country, "shape-1");
    const { mail, text } = await refundAndCompose(order.id, { kind: "order" });
    expect(mail.subject).toContain(order.number);
    expect(text).toContain(money(order.totalMinor, market));
    expect(`${mail.subject}${text}${mail.html}`).not.toMatch(/[{}]/);
  });
});

describe("the withdrawal acknowledgement", () => {
  const database = useTestDatabase("pglite");

  /** The acknowledgement of a withdrawal from a market, as the outbox would hand it over. */
  async function acknowledgement(country: CountryCode) {
    const market = marketFor(country);
    const row = {
      id: 1,
      kind: "withdrawal",
      dedupeKey: `withdrawal:${randomUUID()}`,
      orderId: null,
      recipient: testBuyer.email,
      locale: market.locale,
      payload: { reference: "W-2345ABCD", name: "", orderNumber: "VN-2345-6789", receivedAt: new Date("2026-11-27T10:00:00Z").toISOString(), market: market.country },
      status: "pending" as const,
      attempts: 0,
      sendAfter: new Date(),
      lockedUntil: null,
      lastError: null,
      sentAt: null,
      createdAt: new Date(),
    };
    const mail = await composeMail(row, { db: database.db, ...context });
    if (!mail) throw new Error("expected a message");
    return { raw: mail.text, text: plain(mail.text), html: plain(mail.html) };
  }

  it.each([
    ["DE", "Wohin Sie die Ware zurücksenden", ["Vitanor Nutrition B.V.", "Retouren", "Keizersgracht 241", "1016 EA Amsterdam", "Niederlande"], "auch angebrochene"],
    ["SE", "Vart du skickar tillbaka varorna", ["Vitanor Nutrition B.V.", "Returer", "Keizersgracht 241", "1016 EA Amsterdam", "Nederländerna"], "även öppnade"],
    ["GB", "Where to send the goods back", ["Vitanor UK Ltd", "Returns", "71–75 Shelton Street, Covent Garden", "London WC2H 9JQ", "United Kingdom"], "opened ones too"],
  ] as const)("in %s gives the market's return address line by line and what to send back", async (country, heading, address, what) => {
    const { raw, text, html } = await acknowledgement(country);
    expect(text).toContain(heading.toUpperCase());
    expect(raw).toContain(address.map((line) => `  ${line}`).join("\n"));
    expect(text).toContain(what);
    expect(html).toContain(address.map((line) => `${line.replace("&", "&amp;")}<br/>`).join("</span><span>"));
    expect(html).toContain(what);
  });
});
