import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { orderEvents, orderLines, orders, type OrderStatus } from "../orders/schema";
import { pageViews } from "../funnel/schema";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { funnelReport, type FunnelFigures } from "./funnel-report.server";

/**
 * A small store whose figures are worked out by hand below (range 2026-11-01 to 2026-11-03).
 *
 * Page views in range: DE without variant: landing 100 + 60, offer 80, checkout 20, upsell-1 8,
 * upsell-2 3, thank-you 9. GB with variant v2: summary 40, offer 50, checkout 10, thank-you 4.
 * CH without variant: offer 30. Outside the range: landing DE 999 on 10-31 and on 11-04.
 */
const views: [day: string, step: string, market: string, src: string, views: number][] = [
  ["2026-10-31", "landing", "DE", "", 999],
  ["2026-11-01", "landing", "DE", "", 100],
  ["2026-11-02", "landing", "DE", "", 60],
  ["2026-11-01", "offer", "DE", "", 80],
  ["2026-11-01", "checkout", "DE", "", 20],
  ["2026-11-01", "upsell-1", "DE", "", 8],
  ["2026-11-01", "upsell-2", "DE", "", 3],
  ["2026-11-03", "thank-you", "DE", "", 9],
  ["2026-11-01", "summary", "GB", "v2", 40],
  ["2026-11-01", "offer", "GB", "v2", 50],
  ["2026-11-02", "checkout", "GB", "v2", 10],
  ["2026-11-03", "thank-you", "GB", "v2", 4],
  ["2026-11-02", "offer", "CH", "", 30],
  ["2026-11-04", "landing", "DE", "", 999],
];

interface FixtureOrder {
  name: string;
  market: "DE" | "GB";
  src: string | null;
  status: OrderStatus;
  created: string;
  paid: string | null;
  /** The total, upsells taken included. */
  total: number;
  test?: boolean;
  shown?: string[];
  taken?: { page: string; gross: number }[];
  /** The checkout's add-on ticked: a second checkout line of this gross amount. */
  bump?: number;
}

/**
 * - o1 paid, took `upsell` (9,90 €), was shown `upsell` twice (a reload) and `upsellMind`.
 * - o2 paid, refunded since: still a sale; shown `upsell`, took nothing.
 * - o3 still waiting for payment, o4 declined: checkouts started, not paid.
 * - o5 created the evening before the range, paid in it: paid, not started; took `upsellMind`
 *   with no `upsell_shown` event recorded (it counts as shown).
 * - o6 started on the last day, paid the day after: started, not paid; its upsell is not counted.
 * - o7 a test order: left out unless test orders are included.
 * - o8 paid, then cancelled: started, not paid.
 * - g1 (GB, v2) paid, shown and took `upsell`; g2 withdrawn since, shown both, took none; g3 pending.
 * - The checkout's add-on: o1 and g2 paid with it; o6 (paid after the range) and o8 (cancelled) too, not counted.
 */
const fixture: FixtureOrder[] = [
  { name: "o1", market: "DE", src: null, status: "paid", created: "2026-11-01T10:00:00Z", paid: "2026-11-01T10:01:00Z", total: 9960, shown: ["upsell", "upsell", "upsellMind"], taken: [{ page: "upsell", gross: 990 }], bump: 990 },
  { name: "o2", market: "DE", src: null, status: "refunded", created: "2026-11-01T11:00:00Z", paid: "2026-11-01T11:02:00Z", total: 4990, shown: ["upsell"] },
  { name: "o3", market: "DE", src: null, status: "pending_payment", created: "2026-11-02T09:00:00Z", paid: null, total: 3000 },
  { name: "o4", market: "DE", src: null, status: "payment_failed", created: "2026-11-02T09:30:00Z", paid: null, total: 3000 },
  { name: "o5", market: "DE", src: null, status: "fulfilled", created: "2026-10-31T23:59:00Z", paid: "2026-11-01T00:05:00Z", total: 5000, taken: [{ page: "upsellMind", gross: 1490 }] },
  { name: "o6", market: "DE", src: null, status: "paid", created: "2026-11-03T23:30:00Z", paid: "2026-11-04T00:10:00Z", total: 4000, shown: ["upsell"], bump: 990 },
  { name: "o7", market: "DE", src: null, status: "paid", created: "2026-11-01T12:00:00Z", paid: "2026-11-01T12:01:00Z", total: 100000, test: true, shown: ["upsell"], taken: [{ page: "upsell", gross: 990 }] },
  { name: "o8", market: "DE", src: null, status: "cancelled", created: "2026-11-01T13:00:00Z", paid: "2026-11-01T13:01:00Z", total: 2000, bump: 990 },
  { name: "g1", market: "GB", src: "v2", status: "paid", created: "2026-11-01T08:00:00Z", paid: "2026-11-01T08:01:00Z", total: 4480, shown: ["upsell"], taken: [{ page: "upsell", gross: 990 }] },
  { name: "g2", market: "GB", src: "v2", status: "withdrawn", created: "2026-11-02T08:00:00Z", paid: "2026-11-02T08:01:00Z", total: 3490, shown: ["upsell", "upsellMind"], bump: 790 },
  { name: "g3", market: "GB", src: "v2", status: "pending_payment", created: "2026-11-03T08:00:00Z", paid: null, total: 3490 },
];

const range = { from: "2026-11-01", to: "2026-11-03" };

/** The parts of the figures worth comparing, with the steps as a name → [visitors, share of the visitors] map. */
function summary(figures: FunnelFigures) {
  return {
    steps: Object.fromEntries(figures.steps.map((step) => [step.step, [step.visitors, step.shareOfVisitors]])),
    entry: [figures.entryStep, figures.entryVisitors],
    started: figures.checkoutsStarted,
    paid: figures.ordersPaid,
    orderConversion: figures.orderConversion,
    upsells: figures.upsells.map((upsell) => [upsell.page, upsell.step, upsell.shown, upsell.taken, upsell.takeRate]),
    currencies: figures.currencies.map((currency) => [currency.currency, currency.ordersPaid, currency.revenueMinor, currency.averageOrderValueMinor, currency.entryStep, currency.visitors, currency.revenuePerVisitorMinor]),
  };
}

describe.each(databaseKinds)("funnel report on %s", (kind) => {
  const database = useTestDatabase(kind);

  beforeAll(async () => {
    const db = database.db;
    await db.insert(pageViews).values(views.map(([day, step, market, src, count]) => ({ day, step, market, src, views: count })));
    for (const order of fixture) {
      const id = randomUUID();
      await db.insert(orders).values({
        id,
        number: `VN-TEST-${order.name.toUpperCase()}`,
        status: order.status,
        market: order.market,
        locale: order.market === "GB" ? "en_GB" : "de_DE",
        currency: order.market === "GB" ? "GBP" : "EUR",
        email: `${order.name}@example.com`,
        givenName: "Test",
        familyName: order.name,
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
        funnelSrc: order.src,
        test: order.test ?? false,
        createdAt: new Date(order.created),
        paidAt: order.paid ? new Date(order.paid) : null,
      });
      const line = (source: string, gross: number) => ({ orderId: id, bundleId: "b", productId: "p", productName: "P", kind: "supplement" as const, units: 1, grossMinor: gross, vatRateBp: 700, vatMinor: 0, source });
      const checkoutGross = order.total - (order.bump ?? 0) - (order.taken ?? []).reduce((sum, taken) => sum + taken.gross, 0);
      await db.insert(orderLines).values([line("checkout", checkoutGross), ...(order.bump ? [line("checkout:1", order.bump)] : []), ...(order.taken ?? []).map((taken) => line(`upsell:${taken.page}`, taken.gross))]);
      const events = [
        { orderId: id, type: "order_created", detail: {} },
        ...(order.shown ?? []).map((page) => ({ orderId: id, type: "upsell_shown", detail: { step: page } })),
        ...(order.taken ?? []).map((taken) => ({ orderId: id, type: "upsell_accepted", detail: { step: taken.page, amount: taken.gross } })),
      ];
      await db.insert(orderEvents).values(events);
    }
  });

  it("adds up the whole filter as worked out by hand", async () => {
    const report = await funnelReport(database.db, range);
    expect(report).toMatchObject({ from: "2026-11-01", to: "2026-11-03", src: null, market: null, includeTest: false });
    expect(summary(report.total)).toEqual({
      steps: {
        // Each step as a share of the same visitors, those of the busiest step (160): never above 1,
        // though the thank-you page has more views than the upsell before it.
        landing: [160, 1],
        quiz: [0, 0],
        summary: [40, 0.25],
        offer: [160, 1],
        checkout: [30, 0.1875],
        "upsell-1": [8, 0.05],
        "upsell-2": [3, 3 / 160],
        "thank-you": [13, 13 / 160],
      },
      // Landing and offer both have 160 views: the earlier step is the entry.
      entry: ["landing", 160],
      started: 9,
      paid: 5,
      orderConversion: 5 / 160,
      upsells: [
        ["upsell", "upsell-1", 4, 2, 0.5],
        ["upsellMind", "upsell-2", 3, 1, 1 / 3],
      ],
      currencies: [
        // 9960 + 4990 + 5000 = 19950 from 3 orders; per landing view in DE: 19950 / 160 = 124.69.
        ["EUR", 3, 19950, 6650, "landing", 160, 125],
        // 4480 + 3490 = 7970 from 2 orders; GB's traffic comes in on the offer: 7970 / 50 = 159.4.
        ["GBP", 2, 7970, 3985, "offer", 50, 159],
        // Visitors but no order: nothing per order, nothing per visitor.
        ["CHF", 0, 0, null, "offer", 30, 0],
      ],
    });
  });

  it("counts the paid orders with the checkout's add-on, in total and per variant", async () => {
    const report = await funnelReport(database.db, range);
    expect([report.total.bumpTaken, report.total.bumpTakeRate]).toEqual([2, 2 / 5]);
    expect(report.bySrc.map((row) => [row.src, row.bumpTaken, row.bumpTakeRate])).toEqual([
      ["", 1, 1 / 3],
      ["v2", 1, 1 / 2],
    ]);
    expect((await funnelReport(database.db, { ...range, src: "v2" })).total.bumpTaken).toBe(1);
  });

  it("breaks the figures down by variant and market", async () => {
    const report = await funnelReport(database.db, range);
    expect(report.rows.map((row) => [row.src, row.market])).toEqual([
      ["", "DE"],
      ["", "CH"],
      ["v2", "GB"],
    ]);
    const [germany, switzerland, britain] = report.rows.map(summary);
    expect(germany).toMatchObject({
      entry: ["landing", 160],
      started: 6,
      paid: 3,
      orderConversion: 3 / 160,
      upsells: [
        ["upsell", "upsell-1", 2, 1, 0.5],
        ["upsellMind", "upsell-2", 2, 1, 0.5],
      ],
      currencies: [["EUR", 3, 19950, 6650, "landing", 160, 125]],
    });
    expect(switzerland).toMatchObject({ entry: ["offer", 30], started: 0, paid: 0, orderConversion: 0, upsells: [], currencies: [["CHF", 0, 0, null, "offer", 30, 0]] });
    expect(britain).toMatchObject({
      steps: { summary: [40, 0.8], offer: [50, 1], checkout: [10, 0.2], "thank-you": [4, 0.08] },
      entry: ["offer", 50],
      started: 3,
      paid: 2,
      orderConversion: 0.04,
      upsells: [
        ["upsell", "upsell-1", 2, 1, 0.5],
        ["upsellMind", "upsell-2", 1, 0, 0],
      ],
      currencies: [["GBP", 2, 7970, 3985, "offer", 50, 159]],
    });
    expect(report.bySrc.map((row) => [row.src, row.entryStep, row.entryVisitors, row.ordersPaid])).toEqual([
      ["", "landing", 160, 3],
      ["v2", "offer", 50, 2],
    ]);
    expect(report.byMarket.map((row) => [row.market, row.checkoutsStarted, row.ordersPaid])).toEqual([
      ["DE", 6, 3],
      ["GB", 3, 2],
      ["CH", 0, 0],
    ]);
  });

  it("filters by variant and by market", async () => {
    const britain = await funnelReport(database.db, { ...range, src: "v2" });
    expect(britain.rows.map((row) => row.market)).toEqual(["GB"]);
    expect(summary(britain.total)).toMatchObject({ entry: ["offer", 50], started: 3, paid: 2, currencies: [["GBP", 2, 7970, 3985, "offer", 50, 159]] });
    const withoutVariant = await funnelReport(database.db, { ...range, src: "" });
    expect(withoutVariant.rows.map((row) => row.market)).toEqual(["DE", "CH"]);
    expect(withoutVariant.total.checkoutsStarted).toBe(6);
    const germany = await funnelReport(database.db, { ...range, market: "DE" });
    expect(summary(germany.total)).toMatchObject({ steps: { landing: [160, 1], offer: [80, 0.5] }, started: 6, paid: 3 });
  });

  it("counts test orders only when asked to", async () => {
    const report = await funnelReport(database.db, { ...range, includeTest: true });
    // o7: one more started and paid (100000 with its upsell), shown and took `upsell`.
    expect(summary(report.total)).toMatchObject({
      started: 10,
      paid: 6,
      orderConversion: 6 / 160,
      upsells: [
        ["upsell", "upsell-1", 5, 3, 0.6],
        ["upsellMind", "upsell-2", 3, 1, 1 / 3],
      ],
    });
    // 119950 from 4 orders is 29987.5 a order; per landing view 749.69.
    expect(report.total.currencies[0]).toMatchObject({ currency: "EUR", ordersPaid: 4, revenueMinor: 119950, averageOrderValueMinor: 29988, revenuePerVisitorMinor: 750 });
  });

  it("takes whole UTC days at both ends, from dates too", async () => {
    const first = await funnelReport(database.db, { from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-11-01T23:59:59Z") });
    expect(summary(first.total)).toMatchObject({ steps: { landing: [100, 100 / 130] }, started: 4, paid: 4 });
    const lastDay = await funnelReport(database.db, { from: "2026-11-03", to: "2026-11-03" });
    expect(lastDay.total.checkoutsStarted).toBe(2);
    expect(lastDay.total.ordersPaid).toBe(0);
  });

  it("gives null, never NaN, where there is nothing to divide by", async () => {
    const empty = await funnelReport(database.db, { from: "2025-01-01", to: "2025-01-31" });
    expect(summary(empty.total)).toEqual({
      steps: { landing: [0, null], quiz: [0, null], summary: [0, null], offer: [0, null], checkout: [0, null], "upsell-1": [0, null], "upsell-2": [0, null], "thank-you": [0, null] },
      entry: [null, 0],
      started: 0,
      paid: 0,
      orderConversion: null,
      upsells: [],
      currencies: [],
    });
    expect(empty.rows).toEqual([]);
  });

  it("refuses a range that is not one", async () => {
    await expect(funnelReport(database.db, { from: "2026-11-03", to: "2026-11-01" })).rejects.toThrow(RangeError);
    await expect(funnelReport(database.db, { from: "2026-02-30", to: "2026-03-01" })).rejects.toThrow(/YYYY-MM-DD/);
    await expect(funnelReport(database.db, { from: "yesterday", to: "2026-03-01" })).rejects.toThrow(RangeError);
  });
});
