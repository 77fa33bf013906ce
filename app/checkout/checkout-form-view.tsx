import { Suspense, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { Form, useNavigate, useNavigation, useSubmit } from "react-router";
import { Field } from "../forms/field";
import { formatMoney } from "../market/money";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import type { CheckoutMethodId } from "../orders/commerce-content.server";
import type { CommerceTexts } from "../orders/commerce-texts.server";
import { autocompleteTokens, checkoutFields, validateCheckout, type CheckoutErrors, type ContactField } from "./checkout-form";
import type { CheckoutPageHandle } from "../payments/checkout-part";
import { checkoutPartOf, preparedFields } from "../payments/checkout-parts";
import type { BrowserNextAction } from "../payments/provider";

interface CheckoutFormProps {
  texts: CommerceTexts["checkout"];
  token: string;
  bundleId: string;
  country: string;
  methods: readonly CheckoutMethodId[];
  /** What each running provider's part of the page needs, by provider id. */
  paymentPages: Readonly<Record<string, unknown>>;
  /** Whether the order without the add-on has digital items. */
  digital: boolean;
  /** The total the pay button names now, with the add-on when its box is ticked. */
  totalMinor: number;
  /** The totals the page showed without and with the add-on: the server charges neither another way. */
  quotedTotals: { plain: number; bumped: number | null };
  /** The offer's add-on, offered in a box the buyer ticks (never ticked by the store). */
  bump: BumpOffer | null;
  values: Record<string, string>;
  errors: CheckoutErrors;
  message: string | null;
  /** The provider left 3-D Secure to its script: finish it in this page, then let the server say how it ended. */
  nextAction?: BrowserNextAction;
  /** Why the code the buyer typed was refused. */
  codeError: string | null;
}

export interface BumpOffer {
  bundleId: string;
  productName: string;
  kind: "supplement" | "digital";
  priceMinor: number;
  pitch: string;
  ticked: boolean;
  onToggle: (ticked: boolean) => void;
}

/** The submit buttons that apply or remove a code rather than pay. */
const codeIntents = ["apply-code", "remove-code"];

/** Methods a provider's part of the checkout reads are paid inside our page or have their own hint; the others are approved on their own page. */
const inPage = (id: CheckoutMethodId) => checkoutPartOf(id) !== undefined;

const emptyPreparedFields = Object.fromEntries(preparedFields.map((name) => [name, ""]));

/** Sets the hidden fields a provider's component prepares. */
function fillFields(form: HTMLFormElement | null, fields: Readonly<Record<string, string>>) {
  for (const [name, value] of Object.entries(fields)) {
    const input = form?.elements.namedItem(name);
    if (input instanceof HTMLInputElement) input.value = value;
  }
}

const addressFields: readonly { field: ContactField; type?: string; optional?: boolean }[] = [
  { field: "givenName" },
  { field: "familyName" },
  { field: "addressLine1" },
  { field: "addressLine2", optional: true },
  { field: "postalCode" },
  { field: "city" },
];

/**
 * Contact, delivery address and payment in one form, ending with the one button that commits the
 * buyer to pay, with the total (decision 0042). The card fields are the test gateway's element.
 */
export function CheckoutForm({ texts, token, bundleId, country, methods, paymentPages, digital, totalMinor, quotedTotals, bump, values, errors: serverErrors, message, nextAction, codeError }: CheckoutFormProps) {
  const t = useTranslate();
  const { market, countryName } = useStorefront();
  const navigation = useNavigation();
  const submit = useSubmit();
  const navigate = useNavigate();
  const [preparing, setPreparing] = useState(false);
  const [finishedAction, setFinishedAction] = useState<BrowserNextAction>();
  const challengeOpen = nextAction !== undefined && finishedAction !== nextAction;
  const applyingCode = codeIntents.includes(String(navigation.formData?.get("intent") ?? ""));
  const busy = preparing || challengeOpen || (navigation.state !== "idle" && navigation.formMethod === "POST" && !applyingCode);
  const [clientErrors, setClientErrors] = useState<CheckoutErrors | null>(null);
  const [method, setMethod] = useState(values.method || methods[0] || "card");
  const [elementError, setElementError] = useState<string | null>(null);
  // Why the last payment failed stays only until the buyer types a new card into the emptied fields.
  const [cardRetyped, setCardRetyped] = useState(false);
  const errors = clientErrors ?? serverErrors;
  const form = useRef<HTMLFormElement>(null);
  // The chosen method's provider component, if its part of the page is more than a radio button.
  const chosenPart = checkoutPartOf(method);
  const page = chosenPart?.page;
  const pageSettings = page && chosenPart ? paymentPages[chosenPart.provider] : undefined;
  const pageHandle = useRef<CheckoutPageHandle>(null);
  // A refused payment comes back with every field kept but the card, as a provider's element does.
  useEffect(() => {
    if (!message) return;
    for (const input of form.current?.querySelectorAll<HTMLInputElement>('[autocomplete^="cc-"]') ?? []) input.value = "";
    fillFields(form.current, emptyPreparedFields);
  }, [message, token, serverErrors]);
  // The challenge runs in the provider's modal; its result is only a hint, so the return path asks
  // the provider on the server either way (a refusal brings the form back with the reason).
  useEffect(() => {
    if (!nextAction) return;
    fillFields(form.current, emptyPreparedFields);
    const challenge = pageHandle.current?.finishNextAction(nextAction.clientSecret) ?? Promise.resolve();
    void challenge
      .catch(() => undefined)
      .then(() => {
        setFinishedAction(nextAction);
        void navigate(nextAction.returnPath);
      });
  }, [nextAction, navigate]);
  // A method a provider introduces under another's name (as the card it mostly is); the rest by their names.
  const methodName = (id: CheckoutMethodId) => texts.methods[(checkoutPartOf(id)?.namedAs?.[id] ?? id) as keyof typeof texts.methods];
  // The hint under a chosen method is its `<method>Hint` in the texts, when the content has one.
  const hintOf = (id: CheckoutMethodId) => {
    const hint = texts[`${id}Hint` as keyof typeof texts];
    return typeof hint === "string" ? hint : null;
  };
  const error = (field: keyof CheckoutErrors) => (errors[field] ? texts.errors[field] : undefined);

  const check = (event: FormEvent<HTMLFormElement>) => {
    if (busy) {
      event.preventDefault();
      return;
    }
    // Applying or removing a code pays nothing: the server answers with the page again.
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter && codeIntents.includes(submitter.value)) {
      setClientErrors(null);
      return;
    }
    const form = new FormData(event.currentTarget);
    const values = Object.fromEntries(checkoutFields.map((field) => [field, String(form.get(field) ?? "")]));
    // A provider component's fields are filled below, once everything else is right.
    if (page) Object.assign(values, page.preparedFields);
    const withDigitalBump = bump?.kind === "digital" && values.bump === "yes";
    const found = validateCheckout(values, { country, methods, digital: digital || withDigitalBump, today: new Date() });
    setClientErrors(found);
    if (Object.keys(found).length > 0) {
      event.preventDefault();
      const first = event.currentTarget.querySelector<HTMLElement>(`[name="${Object.keys(found)[0]}"]`);
      first?.focus();
      return;
    }
    setCardRetyped(false);
    if (!page || Object.keys(page.preparedFields).every((name) => form.get(name))) return;
    event.preventDefault();
    const formElement = event.currentTarget;
    setPreparing(true);
    setElementError(null);
    void (pageHandle.current?.prepare() ?? Promise.resolve({ error: "" })).then((result) => {
      setPreparing(false);
      if ("error" in result) {
        setElementError(result.error || texts.errors.method);
        return;
      }
      fillFields(formElement, result.fields);
      void submit(formElement);
    });
  };

  return (
    <Form ref={form} method="post" className="form checkout-form" noValidate onSubmit={check} aria-labelledby="checkout-heading">
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="bundle" value={bundleId} />
      <input type="hidden" name="quotedTotal" value={quotedTotals.plain} />
      {quotedTotals.bumped !== null ? <input type="hidden" name="quotedBumpTotal" value={quotedTotals.bumped} /> : null}
      <input type="hidden" name="appliedCode" value={values.appliedCode ?? ""} />
      {preparedFields.map((name) => (
        <input key={name} type="hidden" name={name} defaultValue="" />
      ))}
      {message && !cardRetyped ? (
        <p className="checkout-error" role="alert" data-testid="checkout-error">
          {message}
        </p>
      ) : null}
      <fieldset className="checkout-form__group">
        <legend>{texts.contactTitle}</legend>
        <Field name="email" label={texts.email} error={error("email")}>
          {(props) => <input {...props} type="email" autoComplete={autocompleteTokens.email} defaultValue={values.email} required aria-describedby={props["aria-describedby"] ?? "email-hint"} />}
        </Field>
        <p id="email-hint" className="form-hint">
          {texts.emailHint}
        </p>
      </fieldset>
      <fieldset className="checkout-form__group">
        <legend>{texts.addressTitle}</legend>
        {addressFields.map(({ field, optional }) => (
          <Field key={field} name={field} label={texts[field]} error={error(field)}>
            {(props) => <input {...props} type="text" autoComplete={autocompleteTokens[field]} defaultValue={values[field]} required={!optional} />}
          </Field>
        ))}
        <Field name="country" label={texts.country} error={error("country")}>
          {(props) => (
            <select {...props} autoComplete={autocompleteTokens.country} defaultValue={country}>
              <option value={country}>{countryName}</option>
            </select>
          )}
        </Field>
        <Field name="phone" label={texts.phone} error={error("phone")}>
          {(props) => <input {...props} type="tel" autoComplete={autocompleteTokens.phone} defaultValue={values.phone} />}
        </Field>
      </fieldset>
      <fieldset className="checkout-form__group" aria-describedby={errors.method ? "method-error" : undefined}>
        <legend>{texts.paymentTitle}</legend>
        {methods.map((id) => (
          <div key={id} className="checkout-method">
            <label className="quiz__option">
              <input type="radio" name="method" value={id} checked={method === id} onChange={() => setMethod(id)} />
              <span>{methodName(id)}</span>
            </label>
            {id === "card" && method === "card" ? (
              <div className="checkout-card" onInput={() => setCardRetyped(true)}>
                <Field name="cardNumber" label={texts.cardNumber} error={error("cardNumber")}>
                  {(props) => <input {...props} type="text" inputMode="numeric" autoComplete={autocompleteTokens.cardNumber} />}
                </Field>
                <div className="checkout-card__row">
                  <Field name="cardExpiry" label={texts.cardExpiry} error={error("cardExpiry")}>
                    {(props) => <input {...props} type="text" inputMode="numeric" autoComplete={autocompleteTokens.cardExpiry} />}
                  </Field>
                  <Field name="cardCvc" label={texts.cardCvc} error={error("cardCvc")}>
                    {(props) => <input {...props} type="text" inputMode="numeric" autoComplete={autocompleteTokens.cardCvc} maxLength={4} />}
                  </Field>
                </div>
              </div>
            ) : null}
            {id === method && page && pageSettings != null ? (
              <Suspense fallback={<div className={page.placeholder} data-testid={page.placeholder} />}>
                <page.Component
                  ref={pageHandle}
                  settings={pageSettings}
                  amountMinor={totalMinor}
                  currency={market.currency}
                  unavailableText={texts.declines.provider_unavailable}
                  error={elementError}
                />
              </Suspense>
            ) : null}
            {id === method && hintOf(id) ? <p className="form-hint">{hintOf(id)}</p> : null}
            {id === method && !inPage(id) ? <p className="form-hint">{texts.redirectHint.replace("{method}", methodName(id))}</p> : null}
          </div>
        ))}
        {errors.method ? (
          <p id="method-error" className="field-error" role="alert">
            {texts.errors.method}
          </p>
        ) : null}
      </fieldset>
      {bump ? <BumpBox bump={bump} price={formatMoney(bump.priceMinor, { languageTag: market.languageTag, currency: market.currency })} texts={texts.bump} /> : null}
      {digital || bump?.kind === "digital" ? (
        // Asked for the add-on only while its box is ticked: a style rule shows it then, with or without JavaScript.
        <div className={digital ? "form-field" : "form-field checkout-consent--bump"}>
          <label className="checkout-consent">
            <input type="checkbox" name="digitalConsent" value="yes" data-testid="digital-consent" aria-invalid={errors.digitalConsent ? true : undefined} />
            <span>{texts.digitalConsent}</span>
          </label>
          {errors.digitalConsent ? (
            <p className="field-error" role="alert">
              {texts.errors.digitalConsent}
            </p>
          ) : null}
        </div>
      ) : null}
      <p className="form-hint">{texts.legalNote}</p>
      <button type="submit" className="button button--primary checkout-form__pay" data-testid="place-order" aria-disabled={busy || undefined} aria-busy={busy || undefined}>
        {busy ? t("checkout.submitting") : t("checkout.pay", { price: formatMoney(totalMinor, { languageTag: market.languageTag, currency: market.currency }) })}
      </button>
      {/* After the pay button, so that Enter in any other field pays rather than applies a code. */}
      <CodeField texts={texts.code} applied={values.appliedCode ?? ""} typed={values.code ?? ""} error={codeError} />
    </Form>
  );
}

/** The offer's add-on: an unticked box with its price, which adds it to this order and this payment. */
export function BumpBox({ bump, price, texts }: { bump: BumpOffer; price: string; texts: CommerceTexts["checkout"]["bump"] }) {
  return (
    <fieldset className="checkout-form__group checkout-bump" data-testid="order-bump">
      <legend>{texts.heading}</legend>
      <div className="form-field">
        <label className="checkout-consent">
          <input type="checkbox" name="bump" value="yes" checked={bump.ticked} onChange={(event) => bump.onToggle(event.currentTarget.checked)} />
          <span>
            <strong>{texts.add.replace("{product}", bump.productName).replace("{price}", price)}</strong>
            <br />
            {bump.pitch}
          </span>
        </label>
      </div>
    </fieldset>
  );
}

/** The discount code: typed and applied with its own button, or shown as applied with a button to remove it. */
function CodeField({ texts, applied, typed, error }: { texts: CommerceTexts["checkout"]["code"]; applied: string; typed: string; error: string | null }) {
  const applyButton = useRef<HTMLButtonElement>(null);
  // Left to the browser, Enter sends the form with its first submit button, the pay button: the
  // buyer would pay instead of applying the code. Without JavaScript that browser rule stays.
  const applyOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== "Enter" || event.nativeEvent.isComposing || !applyButton.current) return;
    event.preventDefault();
    event.currentTarget.form?.requestSubmit(applyButton.current);
  };
  if (applied) {
    return (
      <div className="form-field checkout-code">
        <p data-testid="code-applied">{texts.applied.replace("{code}", applied)}</p>
        <button type="submit" name="intent" value="remove-code" className="button" data-testid="code-remove" formNoValidate>
          {texts.remove}
        </button>
      </div>
    );
  }
  return (
    <div className="form-field checkout-code">
      <label htmlFor="checkout-code">{texts.label}</label>
      <div className="checkout-code__row">
        <input id="checkout-code" name="code" type="text" autoComplete="off" autoCapitalize="characters" spellCheck={false} defaultValue={typed} aria-invalid={error ? true : undefined} aria-describedby={error ? "code-error" : undefined} onKeyDown={applyOnEnter} />
        <button ref={applyButton} type="submit" name="intent" value="apply-code" className="button" data-testid="code-apply" formNoValidate>
          {texts.apply}
        </button>
      </div>
      {error ? (
        <p id="code-error" className="field-error" role="alert" data-testid="code-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

