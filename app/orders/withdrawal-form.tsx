import { useState, type FormEvent } from "react";
import { Form, useNavigation } from "react-router";
import type { CommerceTexts } from "./commerce-texts.server";
import { Field } from "../forms/field";
import { formValues, validateWithdrawal, type FieldErrors, type WithdrawalField } from "../forms/validation";

export const withdrawalFields = ["name", "orderNumber", "email"] as const;

export type WithdrawalStep =
  | { step: "form"; values: Record<string, string>; errors: FieldErrors<WithdrawalField> }
  | { step: "review"; values: Record<string, string> }
  | { step: "received"; values: Record<string, string>; reference: string; receivedAt: string };

interface Props {
  texts: CommerceTexts["withdraw"];
  /** Where the goods go back to, line by line, for the page's market. */
  returnAddress: readonly string[];
  state: WithdrawalStep;
}

/** What the visitor declared: shown for review, then in the acknowledgement. */
function DeclarationFacts({ texts, values }: { texts: Props["texts"]; values: Record<string, string> }) {
  return (
    <>
      <dt>{texts.name}</dt>
      <dd>{values.name}</dd>
      <dt>{texts.orderNumber}</dt>
      <dd>{values.orderNumber}</dd>
      <dt>{texts.email}</dt>
      <dd>{values.email}</dd>
    </>
  );
}

/**
 * The two steps the directive asks for: the declaration (name, order, e-mail for the
 * acknowledgement), then a button "Confirm withdrawal here"; then the acknowledgement.
 */
export function WithdrawalForm({ texts, returnAddress, state }: Props) {
  const busy = useNavigation().state === "submitting";
  const [clientErrors, setClientErrors] = useState<FieldErrors<WithdrawalField> | null>(null);

  if (state.step === "received") {
    return (
      <section className="form-success" role="status" data-testid="withdraw-received" aria-labelledby="withdraw-received-title">
        <h2 id="withdraw-received-title">{texts.receivedHeading}</h2>
        <p>{texts.receivedText}</p>
        <dl className="withdraw-facts">
          <dt>{texts.reference}</dt>
          <dd>{state.reference}</dd>
          <dt>{texts.receivedAt}</dt>
          <dd>{state.receivedAt}</dd>
          <dt>{texts.statement}</dt>
          <dd>{texts.statementText}</dd>
          <DeclarationFacts texts={texts} values={state.values} />
        </dl>
        <h3>{texts.returnHeading}</h3>
        <address data-testid="withdraw-return-address">
          {returnAddress.map((line, index) => (
            <span key={index}>
              {line}
              <br />
            </span>
          ))}
        </address>
        <p>{texts.returnText}</p>
      </section>
    );
  }

  if (state.step === "review") {
    return (
      <Form method="post" className="form" aria-labelledby="withdraw-review-title">
        <h2 id="withdraw-review-title">{texts.reviewHeading}</h2>
        <p>{texts.reviewText}</p>
        <dl className="withdraw-facts">
          <DeclarationFacts texts={texts} values={state.values} />
        </dl>
        {withdrawalFields.map((field) => (
          <input key={field} type="hidden" name={field} value={state.values[field] ?? ""} />
        ))}
        <div className="form-actions">
          <button type="submit" name="intent" value="confirm" className="button button--primary" data-testid="withdraw-confirm" disabled={busy} aria-busy={busy || undefined}>
            {texts.confirm}
          </button>
          <button type="submit" name="intent" value="change" className="button">
            {texts.change}
          </button>
        </div>
      </Form>
    );
  }

  const errors = clientErrors ?? state.errors;
  const check = (event: FormEvent<HTMLFormElement>) => {
    const found = validateWithdrawal(formValues(new FormData(event.currentTarget), withdrawalFields));
    setClientErrors(found);
    if (Object.keys(found).length > 0) event.preventDefault();
  };
  return (
    <Form method="post" className="form" noValidate onSubmit={check} aria-labelledby="withdraw-form-title">
      <h2 id="withdraw-form-title" className="visually-hidden">
        {texts.heading}
      </h2>
      <Field name="name" label={texts.name} error={errors.name ? texts.errors.name : undefined}>
        {(props) => <input {...props} type="text" autoComplete="name" defaultValue={state.values.name} />}
      </Field>
      <Field name="orderNumber" label={texts.orderNumber} error={errors.orderNumber ? texts.errors.orderNumber : undefined}>
        {(props) => <input {...props} type="text" autoComplete="off" defaultValue={state.values.orderNumber} aria-describedby={props["aria-describedby"] ?? "order-number-hint"} />}
      </Field>
      <p id="order-number-hint" className="form-hint">
        {texts.orderNumberHint}
      </p>
      <Field name="email" label={texts.email} error={errors.email ? texts.errors.email : undefined}>
        {(props) => <input {...props} type="email" autoComplete="email" defaultValue={state.values.email} />}
      </Field>
      <button type="submit" name="intent" value="review" className="button button--primary" disabled={busy}>
        {texts.review}
      </button>
    </Form>
  );
}
