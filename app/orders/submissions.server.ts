import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { feedback, orders, refundRequests } from "./schema";
import { enqueueMail } from "../mail/outbox.server";
import { takeFormMailAllowance } from "../mail/recipient-allowance.server";
import { normalizeOrderNumber } from "./order-number";
import { recordEvent } from "./order-records.server";

interface Origin {
  locale: string;
  market: string;
}

/**
 * A refund request, linked to its order when number and e-mail agree, and acknowledged by e-mail.
 * Nobody has verified the typed address, so what the visitor wrote goes back only to the matched
 * order's own address; any other address gets a receipt without it (the store's sender must not
 * carry a stranger's text to anyone who did not buy from it).
 */
export async function storeRefundRequest(db: Database, values: Record<string, string>, origin: Origin): Promise<void> {
  const validNumber = normalizeOrderNumber(values.orderNumber ?? "");
  const orderNumber = validNumber ?? (values.orderNumber ?? "").trim();
  const email = (values.email ?? "").trim();
  await db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, email: orders.email })
      .from(orders)
      .where(and(eq(orders.number, orderNumber), eq(sql`lower(${orders.email})`, email.toLowerCase())));
    const id = randomUUID();
    const message = (values.message ?? "").trim().slice(0, 2000);
    await tx.insert(refundRequests).values({ id, orderNumber, email, reason: values.reason ?? "other", message, orderId: order?.id ?? null, locale: origin.locale });
    if (order) await recordEvent(tx, order.id, "refund_requested", { reason: values.reason ?? "other" });
    const recipient = order?.email ?? email;
    if (!(await takeFormMailAllowance(tx, recipient))) return;
    const reason = values.reason ?? "other";
    await enqueueMail(tx, {
      kind: "refund-request",
      dedupeKey: `refund-request:${id}`,
      recipient,
      locale: origin.locale,
      orderId: order?.id ?? null,
      payload: order ? { orderNumber, reason, message, market: origin.market } : { orderNumber: validNumber ?? "", reason, market: origin.market },
    });
  });
}

/**
 * Feedback, acknowledged by e-mail when the visitor left an address: a thank-you without the
 * comment, since nobody has verified that the address is the visitor's.
 */
export async function storeFeedback(db: Database, values: Record<string, string>, origin: Origin): Promise<void> {
  const email = (values.email ?? "").trim();
  const comment = (values.comment ?? "").trim().slice(0, 2000);
  await db.transaction(async (tx) => {
    const id = randomUUID();
    await tx.insert(feedback).values({ id, rating: Number(values.rating), comment, email: email || null, locale: origin.locale });
    if (email && (await takeFormMailAllowance(tx, email))) {
      await enqueueMail(tx, {
        kind: "feedback",
        dedupeKey: `feedback:${id}`,
        recipient: email,
        locale: origin.locale,
        payload: { rating: values.rating ?? "", market: origin.market },
      });
    }
  });
}
