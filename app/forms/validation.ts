/**
 * The storefront's forms, validated by the same rules in the browser (before sending) and on the
 * server (always). Errors are keyed by field; the messages come from the page's content.
 */

export type FieldErrors<F extends string> = Partial<Record<F, true>>;

export const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

/** Order numbers as we issue them (`VN-7K3M-Q9XD`), typed in any case, with or without dashes. */
const orderNumberPattern = /^\s*VN-?[2-9A-HJKMNP-TW-Z]{4}-?[2-9A-HJKMNP-TW-Z]{4}\s*$/i;

export const refundReasons = ["withdrawal", "guarantee", "damaged", "other"] as const;
export type RefundField = "orderNumber" | "email" | "reason";

export function validateRefund(values: Record<string, string>): FieldErrors<RefundField> {
  const errors: FieldErrors<RefundField> = {};
  if (!orderNumberPattern.test(values.orderNumber ?? "")) errors.orderNumber = true;
  if (!emailPattern.test(values.email?.trim() ?? "")) errors.email = true;
  if (!(refundReasons as readonly string[]).includes(values.reason ?? "")) errors.reason = true;
  return errors;
}

export type WithdrawalField = "name" | "orderNumber" | "email";

export function validateWithdrawal(values: Record<string, string>): FieldErrors<WithdrawalField> {
  const errors: FieldErrors<WithdrawalField> = {};
  const name = values.name?.trim() ?? "";
  if (name.length === 0 || name.length > 200) errors.name = true;
  if (!orderNumberPattern.test(values.orderNumber ?? "")) errors.orderNumber = true;
  if (!emailPattern.test(values.email?.trim() ?? "")) errors.email = true;
  return errors;
}

export type FeedbackField = "rating" | "comment" | "email";

export function validateFeedback(values: Record<string, string>): FieldErrors<FeedbackField> {
  const errors: FieldErrors<FeedbackField> = {};
  if (!["1", "2", "3", "4", "5"].includes(values.rating ?? "")) errors.rating = true;
  if ((values.comment ?? "").length > 2000) errors.comment = true;
  const email = values.email?.trim() ?? "";
  if (email !== "" && !emailPattern.test(email)) errors.email = true;
  return errors;
}

/** A form's text fields as strings; files and repeated fields are not part of our forms. */
export function formValues(form: FormData, fields: readonly string[]): Record<string, string> {
  return Object.fromEntries(fields.map((field) => [field, String(form.get(field) ?? "").slice(0, 5000)]));
}
