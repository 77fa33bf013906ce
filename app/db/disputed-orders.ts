import { sql } from "drizzle-orm";
import { disputes, orders } from "./schema";

/** Whether the order of the query has a dispute still open: the warehouse does not ship it until the dispute closes. */
export const orderDisputed = sql`exists (select 1 from ${disputes} where ${disputes.orderId} = ${orders.id} and ${disputes.status} = 'open')`;
