import { sql } from "drizzle-orm";
import { lostDisputeOutcomes } from "../payments/dispute-outcomes";
import { disputes, orders } from "./schema";

/**
 * Whether a dispute ended with the money taken back from the store, as its provider words it
 * (`payments/dispute-outcomes.ts`). A provider may send no refund event then, so the order stays
 * `paid` and only the dispute tells that nothing was earned (docs/decisions/0031-money-after-the-charge.md).
 */
export function disputeLost(dispute: { status: string; outcome: string | null }): boolean {
  return dispute.status === "closed" && dispute.outcome !== null && lostDisputeOutcomes.includes(dispute.outcome);
}

/**
 * Whether the order of the query has a dispute still open, or one the store lost: the warehouse does
 * not ship it and its downloads refuse, until the dispute closes in the store's favour or for good.
 */
export const orderDisputed = sql`exists (select 1 from ${disputes} where ${disputes.orderId} = ${orders.id} and (${disputes.status} = 'open' or ${disputes.outcome} in (${sql.join(
  lostDisputeOutcomes.map((outcome) => sql`${outcome}`),
  sql`, `,
)})))`;
