import type { FunnelTexts } from "../funnel/content-schema";
import { Field } from "./field";
import { FormShell } from "./form-shell";
import { RatingField } from "./rating-field";
import { useValidatedForm } from "./use-validated-form";
import { validateFeedback } from "./validation";

export const feedbackFields = ["rating", "comment", "email"] as const;

export function FeedbackForm({ texts }: { texts: FunnelTexts["feedbackForm"] }) {
  const { sent, errors, values, busy, check } = useValidatedForm(feedbackFields, validateFeedback);

  return (
    <FormShell id="feedback-form-title" title={texts.title} sent={sent} success={texts.success} busy={busy} submitLabel={texts.submit} onSubmit={check}>
      <RatingField legend={texts.rating} options={texts.ratingOptions} value={values.rating} error={errors.rating ? texts.errors.rating : undefined} />
      <Field name="comment" label={texts.comment} error={errors.comment ? texts.errors.comment : undefined}>
        {(props) => <textarea {...props} rows={5} defaultValue={values.comment} />}
      </Field>
      <Field name="email" label={texts.email} error={errors.email ? texts.errors.email : undefined}>
        {(props) => <input {...props} type="email" autoComplete="email" defaultValue={values.email} />}
      </Field>
    </FormShell>
  );
}
