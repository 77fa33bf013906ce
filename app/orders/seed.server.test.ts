import { describe, expect, it } from "vitest";
import { orderLines, orders, outbox } from "../db/schema";
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
  });

  it("gives the same store for the same seed", async () => {
    const first = await seedOrders(database.db, 10, { seed: 99, now });
    const second = await seedOrders(database.db, 10, { seed: 99, now });
    expect(second).toEqual(first);
  });
});
