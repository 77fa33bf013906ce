import { eq } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { orders } from "../orders/schema";
import type { Operator } from "../operators/audit.server";
import { fulfilLocked, type FulfilmentRefusal } from "../parcels/fulfilment.server";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface FulfilmentResult {
  fulfilled: string[];
  skipped: { orderId: string; number: string | null; reason: FulfilmentRefusal }[];
}

/**
 * Fulfils orders without a parcel, as the back office did before parcels were recorded, for the
 * tests of fulfilment's own rules, which every parcel goes through (`fulfilLocked`): each order under
 * its own row lock and in its own transaction, so one refused order never holds back the others.
 */
export async function markFulfilled(db: Database, operator: Operator, orderIds: readonly string[], { reviewDelayDays = 7 } = {}): Promise<FulfilmentResult> {
  const result: FulfilmentResult = { fulfilled: [], skipped: [] };
  for (const orderId of new Set(orderIds)) {
    if (!uuidPattern.test(orderId)) {
      result.skipped.push({ orderId, number: null, reason: "not_found" });
      continue;
    }
    const outcome = await db.transaction(async (tx): Promise<{ number: string | null; reason: FulfilmentRefusal | null }> => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
      if (!order) return { number: null, reason: "not_found" };
      return { number: order.number, reason: await fulfilLocked(tx, operator, order, { reviewDelayDays }) };
    });
    if (outcome.reason) result.skipped.push({ orderId, number: outcome.number, reason: outcome.reason });
    else if (outcome.number) result.fulfilled.push(outcome.number);
  }
  return result;
}
