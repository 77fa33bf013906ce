import { lineNameIn } from "../catalog/catalog.server";
import { data } from "react-router";
import site from "../../content/site.json";
import { readFormBody } from "../forms/form-body.server";
import { formValues } from "../forms/validation";
import type { Database } from "../db/database.server";
import type { Market } from "../market/markets";
import { displayNameOf, invitationState, submitReview, type InvitationState } from "./reviews.server";
import { formatReviewText, reviewTextsFor, type ReviewTexts } from "./review-texts.server";
import { reviewFields, reviewValues, validateReview, type ReviewField } from "./review-validation";
import type { FieldErrors } from "../forms/validation";

/** The review page (`/review/:locale?invitation=…`): the form an invitation opens, or why it cannot. */

type ClosedState = Exclude<InvitationState["kind"], "open">;

export interface ReviewFormPage {
  kind: "open";
  token: string;
  product: { name: string; image: string };
  form: ReviewTexts["form"] & { title: string; intro: string; publishedAs: string };
}

export interface ClosedReviewPage {
  kind: ClosedState;
  title: string;
  text: string;
}

export type ReviewPage = ReviewFormPage | ClosedReviewPage;

export interface ReviewActionData {
  ok: boolean;
  errors: FieldErrors<ReviewField>;
  values: Record<string, string>;
  /** Set when the link could no longer be used at the time of sending. */
  closed?: ClosedReviewPage;
  /** Set once the review is stored: the page then says so, whatever its link says now (used). */
  sent?: { title: string; text: string };
}

const noStore = { "Cache-Control": "private, no-store" };

interface ReviewStore {
  db: Database;
  signingKey: string;
}

function closedPage(kind: ClosedState, market: Market): ClosedReviewPage {
  const texts = reviewTextsFor(market.locale).link[kind];
  return { kind, title: texts.title, text: texts.text };
}

/** `imageOf` names a product's image (`products/shape`), from the catalog. */
export async function loadReviewPage(request: Request, market: Market, { db, signingKey }: ReviewStore, imageOf: (productId: string) => string) {
  const token = new URL(request.url).searchParams.get("invitation") ?? "";
  const state = await invitationState(db, signingKey, token);
  if (state.kind !== "open") return data<ReviewPage>(closedPage(state.kind, market), { status: state.kind === "invalid" ? 404 : 410, headers: noStore });
  const { order, line } = state.invitation;
  const texts = reviewTextsFor(market.locale).form;
  const productName = lineNameIn(market.locale, line);
  const values = { product: productName, brand: site.brand, name: displayNameOf(order.givenName, order.familyName) };
  const format = (message: string) => formatReviewText(message, market.languageTag, values);
  return data<ReviewPage>(
    {
      kind: "open",
      token,
      product: { name: productName, image: imageOf(line.productId) },
      form: { ...texts, title: format(texts.title), intro: format(texts.intro), publishedAs: format(texts.publishedAs) },
    },
    { headers: noStore },
  );
}

/** Validates and stores a review; the link's state is checked again inside the transaction. */
export async function postReview(request: Request, market: Market, { db, signingKey }: ReviewStore) {
  const form = await readFormBody(request);
  const token = String(form.get("invitation") ?? "");
  const values = formValues(form, reviewFields);
  const errors = validateReview(values);
  if (Object.keys(errors).length > 0) return data<ReviewActionData>({ ok: false, errors, values }, { status: 400, headers: noStore });
  const outcome = await submitReview(db, signingKey, token, reviewValues(values));
  if (outcome.kind === "stored") {
    const texts = reviewTextsFor(market.locale).form;
    const title = formatReviewText(texts.title, market.languageTag, { product: outcome.productName });
    // Said explicitly: without a status of its own, a form sent without JavaScript was answered
    // with the status of the page loaded after it, whose link is now used (410).
    return data<ReviewActionData>({ ok: true, errors: {}, values: {}, sent: { title, text: texts.success } }, { status: 200, headers: noStore });
  }
  return data<ReviewActionData>(
    { ok: false, errors: {}, values: {}, closed: closedPage(outcome.kind, market) },
    { status: outcome.kind === "invalid" ? 404 : 410, headers: noStore },
  );
}
