import type { FunnelTexts } from "../funnel/content-schema";
import { Field } from "./field";
import { FormShell } from "./form-shell";
import { useValidatedForm } from "./use-validated-form";
import { validateFeedback } from "./validation";

export const feedbackFields = ["rating", "comment", "email"] as const;

const ratings = ["5", "4", "3", "2", "1"] as const;

export function FeedbackForm({ texts }: { texts: FunnelTexts["feedbackForm"] }) {
  const { sent, errors, values, busy, check } = useValidatedForm(feedbackFields, validateFeedback);

  return (
    <FormShell id="feedback-form-title" title={texts.title} sent={sent} success={texts.success} busy={busy} submitLabel={texts.submit} onSubmit={check}>
      <fieldset className="form-field" aria-describedby={errors.rating ? "rating-error" : undefined}>
        <legend>{texts.rating}</legend>
        <div className="form-ratings">
          {ratings.map((rating) => (
            <label key={rating} className="quiz__option">
              <input type="radio" name="rating" value={rating} defaultChecked={values.rating === rating} aria-invalid={errors.rating ? true : undefined} />
              <span>{texts.ratingOptions[rating]}</span>
            </label>
          ))}
        </div>
        {errors.rating ? (
          <p id="rating-error" className="field-error" role="alert">
            {texts.errors.rating}
          </p>
        ) : null}
      </fieldset>
      <Field name="comment" label={texts.comment} error={errors.comment ? texts.errors.comment : undefined}>
        {(props) => <textarea {...props} rows={5} defaultValue={values.comment} />}
      </Field>
      <Field name="email" label={texts.email} error={errors.email ? texts.errors.email : undefined}>
        {(props) => <input {...props} type="email" autoComplete="email" defaultValue={values.email} />}
      </Field>
    </FormShell>
  );
}
