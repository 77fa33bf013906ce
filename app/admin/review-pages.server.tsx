import { listPage } from "./list-page";
import { forbidden, noticeFrom, type AdminContext, type AdminRoute, type Answer } from "./admin-route.server";
import { may } from "./operators.server";
import { page, redirect } from "./http.server";
import { readForm } from "./form.server";
import { isReviewStatus, listReviews, moderateReview, type ModerationResult } from "./review-moderation.server";
import { ReviewsView } from "./views/reviews-view";
import type { Notice } from "./views/frame";

const notices: Record<string, Notice> = {
  published: { kind: "ok", text: "Review published. The storefront shows it within a minute." },
  rejected: { kind: "ok", text: "Review rejected. The storefront no longer shows it within a minute." },
  unchanged: { kind: "ok", text: "It had that status already." },
};

const refusals: Record<Extract<ModerationResult, { kind: "refused" }>["reason"], string> = {
  not_found: "There is no such review. Nothing was changed.",
  no_reason: "Choose the rule the review breaks to reject it. Nothing was changed.",
  not_allowed: "Only an owner may publish or reject reviews. Nothing was changed.",
};

async function showReviews({ store, operator, url }: AdminContext, notice: Notice | null, status = 200): Promise<Answer> {
  const shown = url.searchParams.get("status") ?? "pending";
  const reviewStatus = isReviewStatus(shown) ? shown : "pending";
  const reviews = await listReviews(store.db, reviewStatus, listPage(url.searchParams.get("page")));
  return page(<ReviewsView operator={operator} status={reviewStatus} page={reviews} notice={notice} />, status);
}

export const reviewRoutes: readonly AdminRoute[] = [
  { path: "reviews", nav: { label: "Reviews", permission: "view" }, loader: (context) => showReviews(context, noticeFrom(context.url, notices)) },
  {
    path: "reviews/:id",
    async action(context) {
      const { store, operator, params, request } = context;
      if (!may(operator, "moderate_reviews")) return forbidden(refusals.not_allowed);
      const form = await readForm(request);
      const decision = form.get("decision") === "publish" ? ({ kind: "publish" } as const) : ({ kind: "reject", reason: form.get("reason") ?? "", note: form.get("note") ?? "" } as const);
      const result = await moderateReview(store.db, operator, params.id ?? "", decision);
      const back = form.get("back") ?? "pending";
      const status = isReviewStatus(back) ? back : "pending";
      if (result.kind === "refused") {
        return showReviews({ ...context, url: new URL(`/admin/reviews?status=${status}`, context.url) }, { kind: "error", text: refusals[result.reason] }, { not_found: 404, no_reason: 400, not_allowed: 403 }[result.reason]);
      }
      return redirect(`/admin/reviews?status=${status}&done=${result.kind}`);
    },
  },
];
