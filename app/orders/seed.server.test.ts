import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { funnelReport } from "../admin/funnel-report.server";
import { orderEvents, orderLines, orders } from "./schema";
import { outbox } from "../mail/schema";
import { pageViews } from "../funnel/schema";
import { isFunnelStep } from "../funnel/funnel-steps";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { seedOrders } from "./seed.server";

describe.each(databaseKinds)("seeded orders on %s", (kind) => {
  const database = useTestDatabase(kind);
  const now = new Date("2026-11-23T12:00:00Z");

  it("fills the store with test orders across markets and statuses, consistent and silent", { timeout: 120_000 }, async () => {
    const summary = await seedOrders(database.db, 60, { seed: 7, now });
    expect(summary.orders).toBe(60);
    expect(Object.keys(summary.byMarket).length).toBeGreaterThanOrEqual(8);
    for (const status of ["paid", "fulfilled", "refunded", "partially_refunded", "payment_failed"]) expect(summary.byStatus[status], status).toBeGreaterThan(0);

    const rows = await database.db.select().from(orders);
    const lines = await database.db.select().from(orderLines);
    for (const order of rows) {
      expect(order.test).toBe(true);
      const items = lines.filter((line) => line.orderId === order.id).reduce((sum, line) => sum + line.grossMinor, 0);
      expect(order.itemsMinor).toBe(items);
      expect(order.totalMinor).toBe(items + order.deliveryMinor);
      expect(now.getTime() - order.createdAt.getTime()).toBeLessThanOrEqual(60 * 24 * 60 * 60 * 1000);
      expect(order.paidAt === null).toBe(order.status === "payment_failed");
    }
    expect(lines.some((line) => line.source.startsWith("upsell:"))).toBe(true);
    // Seeded orders must never e-mail the invented buyers.
    expect(await database.db.select().from(outbox)).toEqual([]);

    // Every upsell taken was shown first; paid orders that took none were mostly shown one too.
    const shown = await database.db.select({ orderId: orderEvents.orderId, detail: orderEvents.detail }).from(orderEvents).where(eq(orderEvents.type, "upsell_shown"));
    const shownPairs = new Set(shown.map((event) => `${event.orderId}|${String(event.detail.step)}`));
    for (const line of lines.filter((candidate) => candidate.source.startsWith("upsell:"))) {
      expect(shownPairs.has(`${line.orderId}|${line.source.slice("upsell:".length)}`), line.source).toBe(true);
    }
    const failed = new Set(rows.filter((order) => order.paidAt === null).map((order) => order.id));
    expect(shown.some((event) => failed.has(event.orderId))).toBe(false);
    expect(shown.length).toBeGreaterThan(lines.filter((line) => line.source.startsWith("upsell:")).length);

    // Page views around the orders: every step a known one, every view within the 60 days.
    const views = await database.db.select().from(pageViews);
    expect(summary.pageViews).toBe(views.reduce((sum, row) => sum + row.views, 0));
    for (const row of views) {
      expect(isFunnelStep(row.step), row.step).toBe(true);
      expect(row.day >= "2026-09-24" && row.day <= "2026-11-23", row.day).toBe(true);
    }
  });

  it("makes a funnel report that reads like a funnel", async () => {
    const report = await funnelReport(database.db, { from: "2026-09-24", to: "2026-11-23", includeTest: true });
    for (const [label, figures] of [["total", report.total] as const, ...report.rows.map((row) => [`${row.src}|${row.market}`, row] as const)]) {
      const visitors = Object.fromEntries(figures.steps.map((step) => [step.step, step.visitors]));
      expect(figures.entryStep, label).toBe("landing");
      expect(Math.max(...Object.values(visitors)), label).toBe(visitors.landing);
      expect(visitors.landing, label).toBeGreaterThanOrEqual(visitors.offer ?? 0);
      expect(visitors.offer, label).toBeGreaterThanOrEqual(visitors.checkout ?? 0);
      expect(visitors.checkout, label).toBeGreaterThanOrEqual(figures.checkoutsStarted);
      expect(figures.checkoutsStarted, label).toBeGreaterThanOrEqual(figures.ordersPaid);
      expect(visitors["thank-you"], label).toBeGreaterThanOrEqual(figures.ordersPaid);
      for (const upsell of figures.upsells) {
        expect(upsell.shown, `${label} ${upsell.page}`).toBeGreaterThanOrEqual(upsell.taken);
        expect(visitors[upsell.step ?? ""] ?? 0, `${label} ${upsell.page}`).toBeGreaterThanOrEqual(upsell.shown);
      }
      for (const currency of figures.currencies) expect(currency.revenuePerVisitorMinor ?? 0, label).toBeLessThanOrEqual(currency.averageOrderValueMinor ?? 0);
    }
    expect(report.total.ordersPaid).toBeGreaterThan(0);
    expect(report.total.upsells.some((upsell) => upsell.taken > 0)).toBe(true);
    // Test orders only: without them the report has visitors and no orders.
    const live = await funnelReport(database.db, { from: "2026-09-24", to: "2026-11-23" });
    expect(live.total.ordersPaid).toBe(0);
    expect(live.total.entryVisitors).toBe(report.total.entryVisitors);
  });

  it("gives the same store for the same seed", async () => {
    const first = await seedOrders(database.db, 10, { seed: 99, now });
    const second = await seedOrders(database.db, 10, { seed: 99, now });
    expect(second).toEqual(first);
  });
});
