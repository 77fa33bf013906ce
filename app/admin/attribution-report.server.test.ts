import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { orderTouches, touchViews } from "../attribution/schema";
import { orderLines, orders, payments, refunds, type OrderStatus } from "../orders/schema";
import { unpaidStatuses } from "../orders/order-status";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { attributionCsv, attributionReport, maxViewGroups, type AttributionFigures } from "./attribution-report.server";

/**
 * A store of a few hundred orders made by a seeded generator; the expected figures are counted
 * again below straight from the generated list, without SQL, and compared with the report's.
 */

const range = { from: "2026-11-01", to: "2026-11-07" };
const touches = [
  { source: "meta", medium: "paid_social", campaign: "spring", content: "video-a" },
  { source: "meta", medium: "paid_social", campaign: "spring", content: "video-b" },
  { source: "google", medium: "cpc", campaign: "brand", content: "" },
  { source: "news.example.org", medium: "referral", campaign: "", content: "" },
  { source: "direct", medium: "none", campaign: "", content: "" },
] as const;
const statuses: OrderStatus[] = ["paid", "paid", "fulfilled", "refunded", "pending_payment", "payment_failed", "cancelled", "withdrawn"];
const currencyMarkets = [
  ["EUR", "DE"],
  ["GBP", "GB"],
  ["SEK", "SE"],
] as const;

interface Fixture {
  touch: (typeof touches)[number] | null;
  currency: string;
  market: string;
  status: OrderStatus;
  created: Date;
  paid: Date | null;
  total: number;
  test: boolean;
  upsell: boolean;
  bump: boolean;
  /** Succeeded order refunds, then a failed one and a stray one that must not count. */
  refunded: number[];
}

/** A small deterministic generator (mulberry32), so the fixture is the same on every run. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const random = generator(45);
const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const fixture: Fixture[] = Array.from({ length: 300 }, () => {
  const status = pick(statuses);
  // From the day before the range to the day after it, so both ends are tried.
  const created = new Date(Date.parse("2026-10-31T00:00:00Z") + Math.floor(random() * 9 * 86_400_000));
  const paid = status === "pending_payment" || status === "payment_failed" ? null : new Date(created.getTime() + Math.floor(random() * 3 * 3_600_000));
  const [currency, market] = pick(currencyMarkets);
  const total = 1000 + Math.floor(random() * 9000);
  const refundedOnce = status === "refunded" || random() < 0.1;
  return {
    touch: random() < 0.1 ? null : pick(touches),
    currency,
    market,
    status,
    created,
    paid,
    total,
    test: random() < 0.05,
    upsell: random() < 0.3,
    bump: random() < 0.25,
    refunded: paid && refundedOnce ? [Math.floor(total / 3), status === "refunded" ? total - Math.floor(total / 3) : 0].filter((amount) => amount > 0) : [],
  };
});

const views: { day: string; step: string; touch: (typeof touches)[number]; views: number }[] = touches.flatMap((touch) =>
  ["2026-10-31", "2026-11-01", "2026-11-04", "2026-11-07", "2026-11-08"].flatMap((day) =>
    ["landing", "offer", "checkout", "upsell-1"].map((step) => ({ day, step, touch, views: 1 + Math.floor(random() * 50) })),
  ),
);

/** The figures counted again from the fixture for the orders and views `belongs` selects. */
function expected(belongs: (touch: Fixture["touch"]) => boolean, includeTest = false): AttributionFigures {
  const start = Date.parse(`${range.from}T00:00:00Z`);
  const end = Date.parse(`${range.to}T00:00:00Z`) + 86_400_000;
  const inRange = (date: Date | null) => date !== null && date.getTime() >= start && date.getTime() < end;
  const chosen = fixture.filter((order) => belongs(order.touch) && (includeTest || !order.test));
  const sold = chosen.filter((order) => inRange(order.paid) && !(unpaidStatuses as readonly string[]).includes(order.status));
  const stepViews = (step: string) => views.filter((view) => view.step === step && view.day >= range.from && view.day <= range.to && belongs(view.touch)).reduce((sum, view) => sum + view.views, 0);
  const visits = Math.max(stepViews("landing"), stepViews("offer"));
  const currencies = ["EUR", "GBP", "SEK"]
    .map((currency) => {
      const inCurrency = sold.filter((order) => order.currency === currency);
      const totals = inCurrency.reduce((sum, order) => sum + order.total, 0);
      const given = inCurrency.reduce((sum, order) => sum + order.refunded.reduce((all, amount) => all + amount, 0), 0);
      return { currency, orders: inCurrency.length, revenueNetMinor: totals - given, averageOrderValueMinor: inCurrency.length ? Math.round(totals / inCurrency.length) : null };
    })
    .filter((taking) => taking.orders > 0);
  const rate = (count: number) => (sold.length ? count / sold.length : null);
  return {
    visits,
    checkouts: chosen.filter((order) => inRange(order.created)).length,
    orders: sold.length,
    conversion: visits ? sold.length / visits : null,
    currencies,
    upsellTakeRate: rate(sold.filter((order) => order.upsell).length),
    bumpTakeRate: rate(sold.filter((order) => order.bump).length),
    refundRate: rate(sold.filter((order) => order.refunded.length > 0).length),
  };
}

const figures = ({ visits, checkouts, orders: count, conversion, currencies, upsellTakeRate, bumpTakeRate, refundRate }: AttributionFigures) => ({
  visits,
  checkouts,
  orders: count,
  conversion,
  currencies,
  upsellTakeRate,
  bumpTakeRate,
  refundRate,
});

describe.each(databaseKinds)("attribution report on %s", (kind) => {
  const database = useTestDatabase(kind);

  beforeAll(async () => {
    const db = database.db;
    await db.insert(touchViews).values(views.map(({ day, step, touch, views: count }) => ({ day, step, market: "DE", ...touch, views: count })));
    const rows = fixture.map((order) => ({ ...order, id: randomUUID() }));
    await db.insert(orders).values(
      rows.map((order, index) => ({
        id: order.id,
        number: `VN-ATTR-${index}`,
        status: order.status,
        market: order.market,
        locale: "de_DE",
        currency: order.currency,
        email: `buyer${index}@example.com`,
        givenName: "Test",
        familyName: "Buyer",
        addressLine1: "Street 1",
        postalCode: "10115",
        city: "Berlin",
        country: order.market,
        itemsMinor: order.total,
        deliveryMinor: 0,
        deliveryVatRateBp: 0,
        totalMinor: order.total,
        vatMinor: 0,
        checkoutToken: randomUUID(),
        funnelSrc: null,
        test: order.test,
        createdAt: order.created,
        paidAt: order.paid,
      })),
    );
    await db.insert(orderTouches).values(rows.flatMap((order) => (order.touch ? [{ orderId: order.id, ...order.touch, clickIdKind: null, clickId: null, referrerHost: null, landingPath: null }] : [])));
    const line = (orderId: string, source: string) => ({ orderId, bundleId: "b", productId: "p", productName: "P", kind: "supplement" as const, units: 1, grossMinor: 100, vatRateBp: 700, vatMinor: 0, source });
    await db.insert(orderLines).values(rows.flatMap((order) => [line(order.id, "checkout"), ...(order.bump ? [line(order.id, "checkout:1")] : []), ...(order.upsell ? [line(order.id, "upsell:upsell")] : [])]));
    for (const order of rows.filter((row) => row.paid)) {
      const paymentId = randomUUID();
      await db.insert(payments).values({ id: paymentId, orderId: order.id, provider: "test", method: "card", purpose: "checkout", amountMinor: order.total, currency: order.currency, status: "succeeded", idempotencyKey: randomUUID(), returnPath: "/checkout/de" });
      const refund = (amount: number, status: "succeeded" | "failed", refundKind: "order" | "stray") => ({ id: randomUUID(), orderId: order.id, paymentId, amountMinor: amount, reason: "test", kind: refundKind, status, idempotencyKey: randomUUID() });
      // A failed refund and a stray charge given back are not the order's money given back.
      await db.insert(refunds).values([...order.refunded.map((amount) => refund(amount, "succeeded", "order")), refund(77, "failed", "order"), refund(55, "succeeded", "stray")]);
    }
  }, 60_000);

  it("gives each source, medium and campaign the figures counted from the orders themselves", async () => {
    const report = await attributionReport(database.db, range);
    const keys = report.rows.map((row) => [row.source, row.medium, row.campaign]);
    expect(keys.sort()).toEqual(
      [
        ["direct", "none", ""],
        ["google", "cpc", "brand"],
        ["meta", "paid_social", "spring"],
        ["news.example.org", "referral", ""],
        ["unknown", "unknown", ""],
      ].sort(),
    );
    for (const row of report.rows) {
      const belongs = (touch: Fixture["touch"]) => (touch ? touch.source === row.source && touch.medium === row.medium && touch.campaign === row.campaign : row.source === "unknown");
      expect(figures(row), `${row.source} / ${row.campaign}`).toEqual(expected(belongs));
    }
  });

  it("opens a campaign to its contents", async () => {
    const report = await attributionReport(database.db, range);
    const meta = report.rows.find((row) => row.source === "meta");
    expect(meta?.contents.map((content) => content.content).sort()).toEqual(["video-a", "video-b"]);
    for (const content of meta?.contents ?? []) {
      expect(figures(content)).toEqual(expected((touch) => touch?.source === "meta" && touch.content === content.content));
    }
  });

  it("counts test orders only when asked", async () => {
    const report = await attributionReport(database.db, { ...range, includeTest: true });
    const google = report.rows.find((row) => row.source === "google");
    expect(google && figures(google)).toEqual(expected((touch) => touch?.source === "google", true));
  });

  it("reads no more than the busiest groups of page views, and says so when it cut some", async () => {
    const day = "2026-01-05";
    const made = Array.from({ length: maxViewGroups + 5 }, (_, index) => ({ day, step: "offer", market: "DE", source: `made-up-${index}`, medium: "x", campaign: "", content: "", views: 1 }));
    for (let start = 0; start < made.length; start += 500) await database.db.insert(touchViews).values(made.slice(start, start + 500));
    await database.db.insert(touchViews).values({ day, step: "offer", market: "DE", source: "busy", medium: "x", campaign: "", content: "", views: 50 });
    const report = await attributionReport(database.db, { from: day, to: day });
    expect(report.viewsCut).toBe(true);
    expect(report.rows.length).toBe(maxViewGroups);
    expect(report.rows.find((row) => row.source === "busy")?.visits).toBe(50);
    expect((await attributionReport(database.db, range)).viewsCut).toBe(false);
  });

  it("lists the busiest rows first and never adds currencies together", async () => {
    const report = await attributionReport(database.db, range);
    const counts = report.rows.map((row) => row.orders);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (const row of report.rows) expect(new Set(row.currencies.map((taking) => taking.currency)).size).toBe(row.currencies.length);
  });

  it("writes the same figures as CSV, one line per content and currency", async () => {
    const report = await attributionReport(database.db, range);
    const [header, ...lines] = parse(attributionCsv(report)) as string[][];
    expect(header?.slice(0, 4)).toEqual(["source", "medium", "campaign", "content"]);
    const video = lines.filter((line) => line[3] === "video-a");
    const expectedVideo = expected((touch) => touch?.content === "video-a");
    expect(video.map((line) => [line[8], Number(line[9]), Number(line[10])])).toEqual(expectedVideo.currencies.map((taking) => [taking.currency, taking.orders, taking.revenueNetMinor]));
    expect(video.every((line) => Number(line[6]) === expectedVideo.orders && Number(line[4]) === expectedVideo.visits)).toBe(true);
  });

  it("keeps a spreadsheet from reading a campaign name as a formula", () => {
    const csv = attributionCsv({ ...range, includeTest: false, viewsCut: false, rows: [{ source: "=HYPERLINK(1)", medium: "x", campaign: "", contents: [{ content: "", ...expected(() => false) }], ...expected(() => false) }] });
    expect(csv).toContain("'=HYPERLINK(1)");
  });
});
