import { useActionData, useLoaderData, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/review";
import { productImageOf } from "../catalog/catalog.server";
import { storefrontStateContext } from "../market/request-context";
import { store } from "../store/store.server";
import { loadReviewPage, postReview, type ReviewActionData } from "../reviews/review-page.server";
import { ReviewPageView } from "../reviews/review-page-view";

export function loader({ request, context }: Route.LoaderArgs) {
  return loadReviewPage(request, context.get(storefrontStateContext).market, store(), productImageOf);
}

export function action({ request, context }: Route.ActionArgs) {
  return postReview(request, context.get(storefrontStateContext).market, store());
}

/** After a review is sent its link is used: reloading the page's data would only say that. */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return formMethod === "POST" ? false : defaultShouldRevalidate;
}

export function headers(): HeadersInit {
  return { "Cache-Control": "private, no-store" };
}

/** A verified buyer's review, reached only through the link of an invitation e-mail. */
export default function ReviewPage() {
  return <ReviewPageView page={useLoaderData<typeof loader>()} result={useActionData<ReviewActionData>()} />;
}
