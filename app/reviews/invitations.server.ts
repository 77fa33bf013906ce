import { randomUUID } from "node:crypto";
import { and, asc, eq, inArray, not } from "drizzle-orm";
import type { Queryable, Transaction } from "../db/database.server";
import { lineRefunded } from "../orders/refunded-lines";
import { orderLines, orders } from "../orders/schema";
import { outbox } from "../mail/schema";
import { reviewInvitations } from "./schema";
import { routePath } from "../funnel/paths";
import { marketForCountryCode } from "../market/markets";
import { sign, verifySignature } from "../db/store-secret.server";

/**
 * Invitations to review (issue 15): one per product of an order, each with its own link. The link
 * carries the invitation's id signed with the store's key, so the database holds nothing that
 * could be replayed from a backup, and an altered link fails its signature before any lookup.
 */

/** How long a review link works after its e-mail is due. */
export const reviewLinkDays = 60;
const dayMs = 24 * 60 * 60 * 1000;
const signingPurpose = "review-invitation";

type Order = typeof orders.$inferSelect;
type OrderLine = typeof orderLines.$inferSelect;
export type InvitedKind = OrderLine["kind"];

export function invitationToken(signingKey: string, invitationId: string): string {
  return `${invitationId}.${sign(signingKey, signingPurpose, invitationId)}`;
}

const tokenPattern = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

/** The invitation id of a token whose signature holds, else null. */
export function invitationIdOf(signingKey: string, token: string): string | null {
  const match = tokenPattern.exec(token.trim());
  if (!match) return null;
  const [, id = "", signature = ""] = match;
  return verifySignature(signingKey, signingPurpose, id, signature) ? id : null;
}

/** The address of the review page for one invitation, in the order's market. */
export function reviewLink(publicUrl: string, order: Pick<Order, "market">, token: string): string {
  const market = marketForCountryCode(order.market);
  const path = market ? routePath("review-2", market.routeValue) : routePath("review");
  return `${publicUrl}${path}?invitation=${encodeURIComponent(token)}`;
}

/**
 * Invites the buyer to review each product of the order's lines of one kind: physical lines some
 * days after fulfilment, a digital item some days after its first download (`lineIds`: that line
 * alone, with an e-mail of its own). A product bought on two lines is reviewed once. Runs in the
 * caller's transaction; a second call for the same lines changes nothing (one invitation per line,
 * one e-mail per order and kind, or per digital line).
 */
export async function inviteReviews(tx: Transaction, order: Order, kind: InvitedKind, sendAfter: Date, only?: { lineIds: readonly number[] }): Promise<number> {
  if (order.erasedAt) return 0;
  const lines = (
    await tx
      .select()
      .from(orderLines)
      .where(and(eq(orderLines.orderId, order.id), eq(orderLines.kind, kind)))
      .orderBy(asc(orderLines.id))
  ).filter((line) => !only || only.lineIds.includes(line.id));
  const invitedProducts = only
    ? new Set((await tx.select({ productId: reviewInvitations.productId }).from(reviewInvitations).where(eq(reviewInvitations.orderId, order.id))).map((row) => row.productId))
    : new Set<string>();
  const seen = new Set<string>(invitedProducts);
  const firstLineOfProduct = lines.filter((line) => !seen.has(line.productId) && seen.add(line.productId));
  if (firstLineOfProduct.length === 0) return 0;
  const expiresAt = new Date(sendAfter.getTime() + reviewLinkDays * dayMs);
  const invited = await tx
    .insert(reviewInvitations)
    .values(firstLineOfProduct.map((line) => ({ id: randomUUID(), orderId: order.id, orderLineId: line.id, productId: line.productId, expiresAt })))
    .onConflictDoNothing({ target: reviewInvitations.orderLineId })
    .returning({ id: reviewInvitations.id });
  if (invited.length === 0) return 0;
  await tx
    .insert(outbox)
    .values({
      kind: "review-invitation",
      dedupeKey: `review-invitation:${order.id}:${kind}${only ? `:${only.lineIds.join(",")}` : ""}`,
      orderId: order.id,
      recipient: order.email,
      locale: order.locale,
      payload: { invitationIds: invited.map((row) => row.id) },
      sendAfter,
    })
    .onConflictDoNothing({ target: outbox.dedupeKey });
  return invited.length;
}

export type Invitation = typeof reviewInvitations.$inferSelect;

export interface InvitationForReview {
  invitation: Invitation;
  order: Order;
  line: OrderLine;
}

export async function invitationsByIds(db: Queryable, ids: readonly string[]): Promise<InvitationForReview[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ invitation: reviewInvitations, order: orders, line: orderLines })
    .from(reviewInvitations)
    .innerJoin(orders, eq(orders.id, reviewInvitations.orderId))
    .innerJoin(orderLines, eq(orderLines.id, reviewInvitations.orderLineId))
    .where(inArray(reviewInvitations.id, [...ids]))
    .orderBy(asc(reviewInvitations.orderLineId));
  return rows;
}

/**
 * The products of an order the buyer still has: those with a line that no pending or succeeded
 * refund has given back. A product refunded on its own is not worth an invitation to review it.
 */
export async function productsStillHeld(db: Queryable, orderId: string): Promise<Set<string>> {
  const held = await db
    .selectDistinct({ productId: orderLines.productId })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), not(lineRefunded)));
  return new Set(held.map((line) => line.productId));
}
