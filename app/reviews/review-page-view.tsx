import { DocumentMeta } from "../market/document-meta";
import { Field } from "../forms/field";
import { FormShell } from "../forms/form-shell";
import { RatingField } from "../forms/rating-field";
import { useValidatedForm } from "../forms/use-validated-form";
import { StoreImage } from "../image/store-image";
import type { ClosedReviewPage, ReviewActionData, ReviewFormPage, ReviewPage } from "./review-page.server";
import { reviewBodyMaxLength, reviewFields, validateReview } from "./review-validation";

function ClosedLink({ page }: { page: ClosedReviewPage }) {
  return (
    <section className="page-intro" data-testid="review-link-closed" data-state={page.kind}>
      <DocumentMeta title={page.title} />
      <meta name="robots" content="noindex" />
      <h1>{page.title}</h1>
      <p className="page-intro__lead">{page.text}</p>
    </section>
  );
}

function ReviewForm({ page }: { page: ReviewFormPage }) {
  // Once the review is stored the page shows `Sent` instead of this form.
  const { errors, values, busy, check } = useValidatedForm(reviewFields, validateReview);
  const texts = page.form;
  return (
    <section className="page-intro review-page">
      <DocumentMeta title={texts.title} />
      <meta name="robots" content="noindex" />
      <div className="review-page__product">
        <StoreImage src={`${page.product.image}.svg`} preset="packshot" alt="" />
        <h1>{texts.title}</h1>
      </div>
      <p className="page-intro__lead">{texts.intro}</p>
      <FormShell id="review-form-title" title={texts.rating} sent={false} success={texts.success} busy={busy} submitLabel={texts.submit} onSubmit={check}>
        <input type="hidden" name="invitation" value={page.token} />
        <RatingField legend={texts.rating} options={texts.ratingOptions} value={values.rating} error={errors.rating ? texts.errors.rating : undefined} hideLegend />
        <Field name="body" label={texts.body} error={errors.body ? texts.errors.body : undefined}>
          {(props) => (
            <>
              <textarea {...props} rows={7} maxLength={reviewBodyMaxLength} defaultValue={values.body} aria-describedby={[props["aria-describedby"], "body-hint"].filter(Boolean).join(" ")} />
              <p id="body-hint" className="form-hint">
                {texts.bodyHint}
              </p>
            </>
          )}
        </Field>
        <p className="form-hint">{texts.publishedAs}</p>
      </FormShell>
    </section>
  );
}

function Sent({ sent }: { sent: NonNullable<ReviewActionData["sent"]> }) {
  return (
    <section className="page-intro">
      <DocumentMeta title={sent.title} />
      <meta name="robots" content="noindex" />
      <h1>{sent.title}</h1>
      <p className="form-success" role="status" data-testid="form-success">
        {sent.text}
      </p>
    </section>
  );
}

/**
 * The review page: the form, the thanks once it is sent (the link is used up by then, so the page's
 * own data would say so), or why the link cannot be used (also when that turned out on sending).
 */
export function ReviewPageView({ page, result }: { page: ReviewPage; result: ReviewActionData | undefined }) {
  if (result?.sent) return <Sent sent={result.sent} />;
  if (result?.closed) return <ClosedLink page={result.closed} />;
  if (page.kind !== "open") return <ClosedLink page={page} />;
  return <ReviewForm page={page} />;
}
