import { Form } from "react-router";
import type { FunnelTexts } from "../funnel/content-schema";
import { Field } from "./field";
import { useValidatedForm } from "./use-validated-form";
import { validateFeedback } from "./validation";

export const feedbackFields = ["rating", "comment", "email"] as const;

const ratings = ["5", "4", "3", "2", "1"] as const;

export function FeedbackForm({ texts }: { texts: FunnelTexts["feedbackForm"] }) {
  const { sent, errors, values, busy, check } = useValidatedForm(feedbackFields, validateFeedback);

  if (sent) {
    return (
      <p className="form-success" role="status" data-testid="form-success">
        {texts.success}
      </p>
    );
  }
  return (
    <Form method="post" className="form" noValidate onSubmit={check} aria-labelledby="feedback-form-title">
      <h2 id="feedback-form-title">{texts.title}</h2>
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
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy || undefined}>
        {texts.submit}
      </button>
    </Form>
  );
}
