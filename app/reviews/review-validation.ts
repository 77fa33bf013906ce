import type { FieldErrors } from "../forms/validation";

/**
 * The review form's rules, the same in the browser and on the server: a rating from 1 to 5 and a
 * text that is neither empty nor longer than `reviewBodyMaxLength` characters.
 */
export const reviewFields = ["rating", "body"] as const;
export type ReviewField = (typeof reviewFields)[number];
export const reviewBodyMaxLength = 2000;

export interface ReviewValues {
  rating: number;
  body: string;
}

/** The text as stored: trimmed, line ends made alike, tabs as spaces, other control characters dropped. */
export function cleanReviewBody(body: string): string {
  return body
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, " ")
    .replace(/(?!\n)\p{Cc}/gu, "")
    .trim();
}

export function validateReview(values: Record<string, string>): FieldErrors<ReviewField> {
  const errors: FieldErrors<ReviewField> = {};
  if (!["1", "2", "3", "4", "5"].includes(values.rating ?? "")) errors.rating = true;
  const body = cleanReviewBody(values.body ?? "");
  if (body.length === 0 || Array.from(body).length > reviewBodyMaxLength) errors.body = true;
  return errors;
}

/** The values of a form that passed `validateReview`. */
export function reviewValues(values: Record<string, string>): ReviewValues {
  return { rating: Number(values.rating), body: cleanReviewBody(values.body ?? "") };
}
