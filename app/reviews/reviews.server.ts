import { lineNameIn } from "../catalog/catalog.server";
import { randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database, Queryable } from "../db/database.server";
import { reviewInvitations, reviews } from "./schema";
import { marketForCountryCode, type Market } from "../market/markets";
import { invitationIdOf, invitationsByIds, type InvitationForReview } from "./invitations.server";
import type { ReviewValues } from "./review-validation";

/** What a review link leads to: the form, or why it cannot be used. */
export type InvitationState =
  | { kind: "open"; invitation: InvitationForReview }
  /** Not a link we made (altered or cut short), or its order was erased on request. */
  | { kind: "invalid" }
  | { kind: "expired"; invitation: InvitationForReview }
  | { kind: "used"; invitation: InvitationForReview };

export async function invitationState(db: Queryable, signingKey: string, token: string, now = new Date()): Promise<InvitationState> {
  const id = invitationIdOf(signingKey, token);
  if (!id) return { kind: "invalid" };
  const [found] = await invitationsByIds(db, [id]);
  if (!found || found.order.erasedAt) return { kind: "invalid" };
  if (found.invitation.usedAt) return { kind: "used", invitation: found };
  if (found.invitation.expiresAt <= now) return { kind: "expired", invitation: found };
  return { kind: "open", invitation: found };
}

/** The name a review is shown under: first name and the initial of the family name (`Anna M.`). */
export function displayNameOf(givenName: string, familyName: string): string {
  const first = givenName.trim().split(/\s+/)[0] ?? "";
  const initial = Array.from(familyName.trim())[0];
  return initial ? `${first} ${initial.toLocaleUpperCase()}.` : first;
}

/** The language of a market (`de` for de-CH and de-AT alike): reviews are shown per language. */
export function reviewLanguage(market: Pick<Market, "languageTag">): string {
  return (market.languageTag.split("-")[0] ?? "").toLowerCase();
}

/** The language of an order's market; an order of a market no longer sold keeps its locale's. */
function reviewLanguageOf(marketCode: string, locale: string): string {
  return reviewLanguage(marketForCountryCode(marketCode) ?? { languageTag: locale.replace("_", "-") });
}

export type SubmitOutcome = { kind: "stored"; reviewId: string; productName: string } | Exclude<InvitationState, { kind: "open" }>;

/**
 * Stores a review and uses up its invitation in one transaction, under a lock on the invitation:
 * a double submission or a replay finds it used and stores nothing.
 */
export async function submitReview(db: Database, signingKey: string, token: string, values: ReviewValues, now = new Date()): Promise<SubmitOutcome> {
  return db.transaction(async (tx) => {
    const id = invitationIdOf(signingKey, token);
    if (!id) return { kind: "invalid" };
    await tx.select({ id: reviewInvitations.id }).from(reviewInvitations).where(eq(reviewInvitations.id, id)).for("update");
    const state = await invitationState(tx, signingKey, token, now);
    if (state.kind !== "open") return state;
    const { invitation, order, line } = state.invitation;
    const reviewId = randomUUID();
    await tx.insert(reviews).values({
      id: reviewId,
      invitationId: invitation.id,
      orderId: order.id,
      orderLineId: line.id,
      productId: invitation.productId,
      rating: values.rating,
      body: values.body,
      displayName: displayNameOf(order.givenName, order.familyName),
      language: reviewLanguageOf(order.market, order.locale),
      test: order.test,
    });
    await tx.update(reviewInvitations).set({ usedAt: now }).where(eq(reviewInvitations.id, invitation.id));
    return { kind: "stored", reviewId, productName: lineNameIn(order.locale, line) };
  });
}

export interface PublishedReview {
  id: string;
  rating: number;
  body: string;
  displayName: string;
  publishedAt: Date;
  createdAt: Date;
}

export interface RatingSummary {
  productId: string;
  /** The mean of the ratings, unrounded. */
  average: number;
  count: number;
}

/** Test orders' reviews count only in a store running in test mode. */
const shown = (language: string, includeTest: boolean) =>
  and(eq(reviews.status, "published"), eq(reviews.language, language), includeTest ? undefined : eq(reviews.test, false));

/** A product's published reviews in one language, newest first, at most `limit`. */
export async function publishedReviews(db: Queryable, productId: string, language: string, includeTest: boolean, limit = 50): Promise<PublishedReview[]> {
  const rows = await db
    .select({
      id: reviews.id,
      rating: reviews.rating,
      body: reviews.body,
      displayName: reviews.displayName,
      moderatedAt: reviews.moderatedAt,
      createdAt: reviews.createdAt,
    })
    .from(reviews)
    .where(and(eq(reviews.productId, productId), shown(language, includeTest)))
    .orderBy(desc(reviews.createdAt), desc(reviews.id))
    .limit(limit);
  return rows.map(({ moderatedAt, ...row }) => ({ ...row, publishedAt: moderatedAt ?? row.createdAt }));
}

/** Average and count of the published reviews in one language, per product that has any. */
export async function ratingSummaries(db: Queryable, language: string, includeTest: boolean): Promise<RatingSummary[]> {
  const rows = await db
    .select({ productId: reviews.productId, average: sql<string>`avg(${reviews.rating})`, count: sql<number>`count(*)::int` })
    .from(reviews)
    .where(shown(language, includeTest))
    .groupBy(reviews.productId)
    .orderBy(reviews.productId);
  return rows.map((row) => ({ productId: row.productId, average: Number(row.average), count: row.count }));
}
