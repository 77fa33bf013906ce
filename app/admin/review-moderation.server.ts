import { may } from "./operators.server";
import { listPage } from "./list-page";
import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { orderLines, orders } from "../orders/schema";
import { reviews, reviewStatuses, type ReviewStatus } from "../reviews/schema";
import { clearReviewCache } from "../reviews/review-section.server";
import { recordAudit, type Operator } from "../operators/audit.server";
import { queuePageSize, type QueuePage } from "./queues.server";

/**
 * Moderation of verified buyers' reviews (issue 15): an operator publishes or rejects a review,
 * always with a reason, and never changes its words. The reasons are the rules of the published
 * review policy (`content/reviews/*.json`, `policy.rules`), so a rejection can always be explained
 * by a rule the buyer could read; a low rating is none of them.
 */

export const rejectionReasons = {
  off_topic: "Not about the product or the purchase",
  personal_data: "Contains personal data",
  offensive: "Offensive, discriminatory or unlawful",
  health_claim: "Claims the product prevents, treats or cures an illness",
  advertising: "Advertising or links",
} as const;
export type RejectionReason = keyof typeof rejectionReasons;
export const publicationReason = "Meets the published review rules";

export interface ModerationRow {
  id: string;
  createdAt: Date;
  productId: string;
  productName: string;
  rating: number;
  body: string;
  displayName: string;
  language: string;
  test: boolean;
  status: ReviewStatus;
  moderationReason: string | null;
  moderatedAt: Date | null;
  moderatedBy: string | null;
  orderNumber: string;
}

export const isReviewStatus = (value: string): value is ReviewStatus => (reviewStatuses as readonly string[]).includes(value);

/** Reviews of one status, oldest first while waiting (first come, first read), newest first otherwise. */
export async function listReviews(db: Database, status: ReviewStatus, page = 1): Promise<QueuePage<ModerationRow>> {
  const current = listPage(page);
  const [counted] = await db.select({ total: sql<number>`count(*)::int` }).from(reviews).where(eq(reviews.status, status));
  const rows = await db
    .select({
      id: reviews.id,
      createdAt: reviews.createdAt,
      productId: reviews.productId,
      productName: orderLines.productName,
      rating: reviews.rating,
      body: reviews.body,
      displayName: reviews.displayName,
      language: reviews.language,
      test: reviews.test,
      status: reviews.status,
      moderationReason: reviews.moderationReason,
      moderatedAt: reviews.moderatedAt,
      moderatedBy: reviews.moderatedBy,
      orderNumber: orders.number,
    })
    .from(reviews)
    .innerJoin(orders, eq(orders.id, reviews.orderId))
    .innerJoin(orderLines, eq(orderLines.id, reviews.orderLineId))
    .where(eq(reviews.status, status))
    .orderBy(status === "pending" ? reviews.createdAt : desc(reviews.moderatedAt), desc(reviews.id))
    .limit(queuePageSize)
    .offset((current - 1) * queuePageSize);
  const total = counted?.total ?? 0;
  return { rows, total, page: current, pages: Math.max(1, Math.ceil(total / queuePageSize)) };
}

export type ModerationDecision = { kind: "publish" } | { kind: "reject"; reason: string; note: string };

export type ModerationResult =
  | { kind: "published" | "rejected" }
  /** The review had that status already (a form sent twice): nothing written. */
  | { kind: "unchanged" }
  | { kind: "refused"; reason: "not_found" | "no_reason" | "not_allowed" };

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Publishes or rejects a review under a lock, with its reason and an audit entry on its order. */
export async function moderateReview(db: Database, operator: Operator, reviewId: string, decision: ModerationDecision): Promise<ModerationResult> {
  if (!may(operator, "moderate_reviews")) return { kind: "refused", reason: "not_allowed" };
  if (!uuidPattern.test(reviewId)) return { kind: "refused", reason: "not_found" };
  let reason: string = publicationReason;
  if (decision.kind === "reject") {
    const rule = rejectionReasons[decision.reason as RejectionReason] as string | undefined;
    if (!rule) return { kind: "refused", reason: "no_reason" };
    const note = decision.note.trim().slice(0, 500);
    reason = note ? `${rule} — ${note}` : rule;
  }
  const to: ReviewStatus = decision.kind === "publish" ? "published" : "rejected";
  const result = await db.transaction(async (tx): Promise<ModerationResult> => {
    const [review] = await tx.select().from(reviews).where(eq(reviews.id, reviewId)).for("update");
    if (!review) return { kind: "refused", reason: "not_found" };
    if (review.status === to) return { kind: "unchanged" };
    await tx
      .update(reviews)
      .set({ status: to, moderationReason: reason, moderatedAt: new Date(), moderatedBy: operator.email })
      .where(eq(reviews.id, reviewId));
    await recordAudit(tx, operator, `review_${to}`, {
      orderId: review.orderId,
      detail: { review: review.id, product: review.productId, from: review.status, rating: review.rating, reason: decision.kind === "reject" ? decision.reason : "rules_met" },
    });
    return { kind: to };
  });
  // This instance shows the change at once; others within a minute (decision record 0022).
  if (result.kind === "published" || result.kind === "rejected") clearReviewCache();
  return result;
}
