import { sql } from "drizzle-orm";
import { orderLines, refunds } from "./schema";

/**
 * Whether the order line of the query is given back: a pending or succeeded refund names it. The
 * warehouse does not ship such a line, and its buyer is not asked to review it.
 */
export const lineRefunded = sql`exists (select 1 from ${refunds} where ${refunds.orderId} = ${orderLines.orderId} and ${refunds.status} in ('pending', 'succeeded') and ${refunds.lineIds} @> jsonb_build_array(${orderLines.id}))`;
