import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { isOfferedBundle } from "../catalog/catalog.server";
import type { Database } from "../db/database.server";
import { orderEvents, orderLines, orders, payments } from "./schema";
import { outbox } from "../mail/schema";
import { pageViews } from "../funnel/schema";
import { upsells } from "../funnel/content.server";
import { upsellPath, upsellStepOf } from "../funnel/funnel-steps";
import { utcDay } from "../funnel/page-views.server";
import { markets, type Market } from "../market/markets";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { deliveryCountry } from "./commerce-content.server";
import { changeStatus, recordEvent } from "./order-records.server";
import { applyPaymentOutcome, endFunnel, placeOrder, type Contact } from "./order-service.server";
import { quoteCheckout, quoteLine } from "./quote.server";
import { refundOrder } from "./refund-service.server";
import { beginUpsell, declineUpsell } from "./upsell-service.server";
import { receiveWithdrawal } from "./withdrawal.server";

/**
 * Realistic test orders for trying the back office and for the benchmark (`npm run seed`):
 * every market, the offer bundles, upsells, and the statuses a store sees, paid through the test
 * gateway exactly as a buyer's order is, spread over the last 60 days. They are test orders and
 * send no e-mail.
 */

/** A few real-looking people and places per country (invented, never real customers). */
const people: Record<string, { names: [string, string][]; streets: string[]; places: [string, string][]; phone: string }> = {
  FR: { names: [["Camille", "Martin"], ["Léa", "Bernard"], ["Hugo", "Dubois"], ["Chloé", "Moreau"]], streets: ["12 rue de la Paix", "4 avenue Jean Jaurès", "27 boulevard Voltaire"], places: [["75002", "Paris"], ["69003", "Lyon"], ["33000", "Bordeaux"]], phone: "+33 6 12 34 56 78" },
  DE: { names: [["Lena", "Müller"], ["Jonas", "Schmidt"], ["Anna", "Schneider"], ["Felix", "Fischer"]], streets: ["Hauptstraße 5", "Lindenallee 17", "Goethestraße 3"], places: [["10115", "Berlin"], ["80331", "München"], ["50667", "Köln"]], phone: "+49 151 2345678" },
  BE: { names: [["Emma", "Peeters"], ["Louis", "Janssens"], ["Lucie", "Dupont"]], streets: ["Rue Neuve 21", "Avenue Louise 130", "Rue du Marché 8"], places: [["1000", "Bruxelles"], ["4000", "Liège"], ["5000", "Namur"]], phone: "+32 470 12 34 56" },
  GB: { names: [["Olivia", "Smith"], ["Harry", "Jones"], ["Amelia", "Taylor"], ["George", "Brown"]], streets: ["14 High Street", "2 Station Road", "37 Church Lane"], places: [["SW1A 1AA", "London"], ["M1 1AE", "Manchester"], ["EH1 1YZ", "Edinburgh"]], phone: "+44 7700 900123" },
  AT: { names: [["Sophie", "Gruber"], ["Lukas", "Huber"], ["Marie", "Wagner"]], streets: ["Mariahilfer Straße 45", "Herrengasse 9", "Landstraße 12"], places: [["1060", "Wien"], ["8010", "Graz"], ["4020", "Linz"]], phone: "+43 664 1234567" },
  SE: { names: [["Alice", "Andersson"], ["William", "Johansson"], ["Maja", "Karlsson"]], streets: ["Storgatan 1", "Drottninggatan 52", "Kungsgatan 8"], places: [["114 55", "Stockholm"], ["411 01", "Göteborg"], ["211 20", "Malmö"]], phone: "+46 70 123 45 67" },
  DK: { names: [["Ida", "Jensen"], ["Oscar", "Nielsen"], ["Freja", "Hansen"]], streets: ["Vesterbrogade 10", "Nørregade 22", "Strøget 5"], places: [["1620", "København V"], ["8000", "Aarhus C"], ["5000", "Odense C"]], phone: "+45 20 12 34 56" },
  FI: { names: [["Aino", "Korhonen"], ["Eino", "Virtanen"], ["Helmi", "Mäkinen"]], streets: ["Mannerheimintie 12", "Hämeenkatu 7", "Kauppakatu 3"], places: [["00100", "Helsinki"], ["33100", "Tampere"], ["20100", "Turku"]], phone: "+358 40 1234567" },
  CH: { names: [["Mia", "Meier"], ["Noah", "Keller"], ["Laura", "Weber"]], streets: ["Bahnhofstrasse 20", "Marktgasse 4", "Seestrasse 81"], places: [["8001", "Zürich"], ["3011", "Bern"], ["4051", "Basel"]], phone: "+41 79 123 45 67" },
  "CH-FR": { names: [["Chloé", "Favre"], ["Luca", "Rochat"], ["Manon", "Blanc"]], streets: ["Rue du Rhône 12", "Avenue de la Gare 5", "Rue de Bourg 20"], places: [["1204", "Genève"], ["1003", "Lausanne"], ["2000", "Neuchâtel"]], phone: "+41 78 123 45 67" },
  ES: { names: [["Lucía", "García"], ["Hugo", "Fernández"], ["Martina", "López"]], streets: ["Calle Mayor 15", "Avenida de la Constitución 3", "Calle de Alcalá 101"], places: [["28013", "Madrid"], ["08002", "Barcelona"], ["41001", "Sevilla"]], phone: "+34 612 34 56 78" },
  IT: { names: [["Giulia", "Rossi"], ["Leonardo", "Russo"], ["Sofia", "Ferrari"]], streets: ["Via Roma 10", "Corso Italia 25", "Via Garibaldi 7"], places: [["00184", "Roma"], ["20121", "Milano"], ["50123", "Firenze"]], phone: "+39 347 123 4567" },
};

/** What happens to a seeded order after checkout, with how often it happens. */
const fates = [
  ["paid", 50],
  ["paid_with_upsell", 20],
  ["fulfilled", 12],
  ["partially_refunded", 5],
  ["refunded", 4],
  ["withdrawn", 3],
  ["payment_failed", 6],
] as const;
type Fate = (typeof fates)[number][0];

/** Small, seedable random numbers, so the same seed gives the same store. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const weighted = <T extends string>(entries: readonly (readonly [T, number])[]): T => {
    let roll = next() * entries.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[0]?.[0] as T;
  };
  return { next, pick, weighted };
}

const offerBundles = ["shape-1", "shape-3", "shape-6", "glucose-3", "collagen-3", "fibergum-3", "lion-3", "salt-3"].filter(isOfferedBundle);

function contactFor(market: Market, random: ReturnType<typeof randomSource>): Contact {
  const local = people[market.country] ?? people.DE;
  if (!local) throw new Error(`No seed people for ${market.country}`);
  const [givenName, familyName] = random.pick(local.names);
  const [postalCode, city] = random.pick(local.places);
  const mailbox = `${givenName}.${familyName}`.normalize("NFD").replace(/[^\w.]/g, "").toLowerCase();
  return {
    email: `${mailbox}.${Math.floor(random.next() * 9000 + 1000)}@example.com`,
    givenName,
    familyName,
    addressLine1: random.pick(local.streets),
    addressLine2: "",
    postalCode,
    city,
    country: deliveryCountry(market),
    phone: random.next() < 0.5 ? local.phone : "",
  };
}

/** The page the checkout leads to (`providerReturnPath(..., "upsell")`). */
const firstUpsell = "upsell";

/**
 * The upsell pages a buyer saw: on the way to the one taken, the pages before it (declined); most
 * buyers who took none reached one page (mostly the checkout's) and declined it and those before.
 */
function upsellPagesShown(taken: string | null, random: ReturnType<typeof randomSource>): string[] {
  if (taken) return upsellPath(upsells.upsells, taken);
  if (random.next() >= 0.85) return [];
  const reached = random.next() < 0.6 ? firstUpsell : random.pick(Object.keys(upsells.upsells));
  return upsellPath(upsells.upsells, reached);
}

/** What the funnel report needs to know of one seeded order to invent the traffic around it. */
interface SeededOrder {
  id: string;
  market: string;
  src: string;
  paid: boolean;
  /** The funnel steps of the upsell pages it was shown (`upsell-1`, ...). */
  upsellSteps: string[];
}

/**
 * Page views around the seeded orders, per day, market and variant (decision 17): a checkout page
 * for every checkout started and some abandoned, more offer views than that, the landing page
 * busiest of all; an upsell page's views at least its offers shown; a thank-you page for every
 * paid order. Only where orders are: a day, market and variant without one gets no traffic.
 */
async function seedPageViews(db: Database, seeded: { order: SeededOrder; day: string }[], random: ReturnType<typeof randomSource>): Promise<number> {
  const cells = new Map<string, { day: string; market: string; src: string; started: number; paid: number; upsells: Map<string, number> }>();
  for (const { order, day } of seeded) {
    const key = `${day}|${order.market}|${order.src}`;
    const cell = cells.get(key) ?? { day, market: order.market, src: order.src, started: 0, paid: 0, upsells: new Map<string, number>() };
    cell.started += 1;
    if (order.paid) cell.paid += 1;
    for (const step of order.upsellSteps) cell.upsells.set(step, (cell.upsells.get(step) ?? 0) + 1);
    cells.set(key, cell);
  }
  const between = (low: number, high: number) => low + random.next() * (high - low);
  const rows: (typeof pageViews.$inferInsert)[] = [];
  for (const { day, market, src, started, paid, upsells: shown } of cells.values()) {
    const checkout = started + Math.round(started * between(0.3, 0.8));
    const offer = Math.ceil(checkout * between(2.5, 4));
    const landing = Math.ceil(offer * between(1.3, 2));
    const quiz = Math.round(landing * between(0.2, 0.4));
    const summary = Math.round(quiz * between(0.5, 0.8));
    const counts: [string, number][] = [
      ["landing", landing],
      ["quiz", quiz],
      ["summary", summary],
      ["offer", offer],
      ["checkout", checkout],
      // A reload now and then: more views than offers shown.
      ...[...shown].map(([step, orders]): [string, number] => [step, orders + Math.round(orders * between(0, 0.3))]),
      ["thank-you", paid + Math.round(paid * between(0, 0.2))],
    ];
    for (const [step, views] of counts) if (views > 0) rows.push({ day, step, market, src, views });
  }
  for (let start = 0; start < rows.length; start += 500) {
    await db
      .insert(pageViews)
      .values(rows.slice(start, start + 500))
      .onConflictDoUpdate({
        target: [pageViews.day, pageViews.step, pageViews.market, pageViews.src],
        set: { views: sql`${pageViews.views} + excluded.views` },
      });
  }
  return rows.reduce((sum, row) => sum + (row.views ?? 0), 0);
}

export interface SeedSummary {
  orders: number;
  byStatus: Record<string, number>;
  byMarket: Record<string, number>;
  /** Funnel page views seeded around the orders. */
  pageViews: number;
}

export async function seedOrders(db: Database, count: number, options: { seed?: number; now?: Date } = {}): Promise<SeedSummary> {
  const random = randomSource(options.seed ?? 20261123);
  // The funnel's traffic draws from its own sequence, so the orders of a seed stay what they were.
  const traffic = randomSource((options.seed ?? 20261123) ^ 0x5eed);
  const now = options.now ?? new Date();
  const gateway = new TestGateway(db);
  const providers = new Map([[gateway.id, gateway]]);
  const seeded: SeededOrder[] = [];
  for (let i = 0; i < count; i++) {
    const market = random.pick(markets);
    const fate: Fate = random.weighted(fates);
    const quote = quoteCheckout(market, random.pick(offerBundles), now);
    if (!quote) continue;
    const contact = contactFor(market, random);
    const placed = await placeOrder(
      db,
      { checkoutToken: randomUUID(), market: market.country, locale: market.locale, currency: quote.currency, contact, lines: quote.lines, totals: quote.totals, funnelSrc: random.pick(["v1", "v2", "v3", null]), test: true, digitalConsent: false },
      { provider: gateway.id, method: "card", returnPath: `/checkout/${market.routeValue}` },
    );
    if (placed.kind !== "pay") continue;
    const card = fate === "payment_failed" ? "4000000000000002" : "4242424242424242";
    const outcome = await gateway.startPayment({
      idempotencyKey: placed.payment.idempotencyKey,
      customer: { email: contact.email, name: `${contact.givenName} ${contact.familyName}`, country: contact.country },
      orderNumber: placed.order.number,
      amountMinor: placed.payment.amountMinor,
      currency: placed.payment.currency,
      method: "card",
      details: { number: card, expiry: "12/30", cvc: "123" },
      saveMethod: true,
      returnUrl: `/checkout-return/${placed.payment.id}`,
    });
    await applyPaymentOutcome(db, placed.payment.id, outcome);
    const record: SeededOrder = { id: placed.order.id, market: market.country, src: placed.order.funnelSrc ?? "", paid: false, upsellSteps: [] };
    seeded.push(record);
    if (fate === "payment_failed" || outcome.status !== "succeeded") continue;
    record.paid = true;

    const takesUpsell = fate === "paid_with_upsell" || fate === "partially_refunded";
    const step = takesUpsell ? random.pick(Object.keys(upsells.upsells)) : null;
    for (const page of upsellPagesShown(step, traffic)) {
      await recordEvent(db, placed.order.id, "upsell_shown", { step: page });
      if (page !== step) await declineUpsell(db, placed.order.id, page);
      const funnelStep = upsellStepOf(page);
      if (funnelStep) record.upsellSteps.push(funnelStep);
    }
    if (step) {
      const bundle = upsells.upsells[step]?.bundle ?? "ebook-1";
      const digital = quoteLine(market, bundle, now).kind === "digital";
      const begun = await beginUpsell(db, placed.order.id, { line: { step, bundleId: bundle }, digitalConsent: digital, provider: gateway.id, method: "card", returnPath: `/${step}/${market.routeValue}`, today: now });
      if (begun.kind === "pay" && outcome.reusableMethodRef) {
        const charged = await gateway.chargeSavedMethod({ idempotencyKey: begun.payment.idempotencyKey, orderNumber: placed.order.number, amountMinor: begun.payment.amountMinor, currency: begun.payment.currency, reusableMethodRef: outcome.reusableMethodRef, returnUrl: "/" });
        await applyPaymentOutcome(db, begun.payment.id, charged);
      }
    }
    await endFunnel(db, placed.order.id);
    if (fate === "fulfilled") {
      await db.transaction(async (tx) => {
        const [order] = await tx.select().from(orders).where(eq(orders.id, placed.order.id)).for("update");
        if (!order) return;
        await tx.update(orders).set({ fulfilledAt: new Date() }).where(eq(orders.id, order.id));
        await changeStatus(tx, order, "fulfilled", "fulfilled", { by: "seed" });
      });
    }
    if (fate === "refunded") await refundOrder(db, providers, { orderId: placed.order.id, scope: { kind: "order" }, reason: "Customer changed their mind", requestKey: `seed-${i}` });
    if (fate === "partially_refunded") {
      // One line back: the upsell where there is one, else the checkout's.
      const lines = await db.select({ id: orderLines.id, source: orderLines.source }).from(orderLines).where(eq(orderLines.orderId, placed.order.id));
      const line = lines.find((candidate) => candidate.source.startsWith("upsell:")) ?? lines[0];
      if (line) await refundOrder(db, providers, { orderId: placed.order.id, scope: { kind: "lines", lineIds: [line.id] }, reason: "Damaged in transit", requestKey: `seed-${i}` });
    }
    if (fate === "withdrawn") {
      await receiveWithdrawal(db, { name: `${contact.givenName} ${contact.familyName}`, orderNumber: placed.order.number, email: contact.email, locale: market.locale, market: market.country });
    }
  }

  // Spread the orders over the last 60 days, as a store's history is; and send nothing.
  const days: { order: SeededOrder; day: string }[] = [];
  for (const record of seeded) {
    const orderId = record.id;
    const when = new Date(now.getTime() - Math.floor(random.next() * 60 * 24 * 60) * 60_000);
    days.push({ order: record, day: utcDay(when) });
    const [row] = await db.select({ paidAt: orders.paidAt }).from(orders).where(eq(orders.id, orderId));
    await db
      .update(orders)
      .set({ createdAt: when, paidAt: row?.paidAt ? when : null })
      .where(eq(orders.id, orderId));
    await db.update(orderEvents).set({ createdAt: when }).where(eq(orderEvents.orderId, orderId));
    await db.update(payments).set({ createdAt: when, updatedAt: when }).where(eq(payments.orderId, orderId));
  }
  const ids = seeded.map((record) => record.id);
  if (ids.length > 0) await db.delete(outbox).where(inArray(outbox.orderId, ids));
  const views = await seedPageViews(db, days, traffic);

  const rows = ids.length > 0 ? await db.select({ status: orders.status, market: orders.market }).from(orders).where(inArray(orders.id, ids)) : [];
  const tally = (key: "status" | "market") => rows.reduce<Record<string, number>>((counts, row) => ({ ...counts, [row[key]]: (counts[row[key]] ?? 0) + 1 }), {});
  return { orders: rows.length, byStatus: tally("status"), byMarket: tally("market"), pageViews: views };
}
