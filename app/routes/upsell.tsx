import { Form, useActionData, useLoaderData, useNavigation } from "react-router";
import type { Route } from "./+types/upsell";
import { CheckoutLink } from "../funnel/checkout-link";
import { TestModeNotice } from "../checkout/test-mode-notice";
import { DocumentMeta } from "../market/document-meta";
import { NextStepLink } from "../chrome/next-step-link";
import { StoreImage } from "../image/store-image";
import { formatMoney } from "../market/money";
import { Money } from "../market/money-text";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { answerUpsell, loadUpsell, type UpsellActionData, type UpsellBuyer } from "../upsells/upsell-page.server";
import { useBrowserNextAction } from "../upsells/upsell-next-action";

export function loader(args: Route.LoaderArgs) {
  return loadUpsell(args);
}

export function action(args: Route.ActionArgs) {
  return answerUpsell(args);
}

export function headers({ loaderHeaders, actionHeaders, parentHeaders }: Route.HeadersArgs): Headers {
  const headers = new Headers(parentHeaders);
  const cache = actionHeaders.get("Cache-Control") ?? loaderHeaders.get("Cache-Control");
  if (cache) headers.set("Cache-Control", cache);
  return headers;
}

/** Accept and decline for a buyer with a paid order: accepting commits to pay, with the amount. */
function UpsellAnswer({ buyer, price, digital }: { buyer: UpsellBuyer; price: string; digital: boolean }) {
  const t = useTranslate();
  const result = useActionData<UpsellActionData>();
  const navigation = useNavigation();
  const authenticating = useBrowserNextAction(result?.nextAction);
  const busy = authenticating || (navigation.state !== "idle" && navigation.formMethod === "POST");
  const message = result?.message || buyer.message;
  return (
    <>
      {message ? (
        <p className="checkout-error" role="alert" data-testid="upsell-error">
          {message}
        </p>
      ) : null}
      <Form method="post" className="upsell__answer" aria-busy={busy || undefined}>
        {digital ? (
          <label className="checkout-consent">
            <input type="checkbox" name="digitalConsent" value="yes" data-testid="digital-consent" aria-invalid={result?.consentMissing || undefined} />
            <span>{buyer.texts.digitalConsent}</span>
          </label>
        ) : null}
        {buyer.onSession ? <p className="form-hint">{buyer.texts.bankHint}</p> : null}
        <button type="submit" name="intent" value="accept" className="button button--primary" data-testid="upsell-accept" aria-disabled={busy || undefined}>
          {busy ? t("checkout.submitting") : t("upsell.accept", { price })}
        </button>
      </Form>
    </>
  );
}

/**
 * One product with its price. A buyer who has just paid accepts with one click (the same order,
 * charged again) or declines; a visitor without an order can choose it at the checkout instead.
 */
export default function UpsellPage() {
  const { line, next, product, texts, digital, buyer } = useLoaderData<typeof loader>();
  const { market } = useStorefront();
  const t = useTranslate();
  const price = formatMoney(line.priceMinor, { languageTag: market.languageTag, currency: line.currency });
  return (
    <section className="upsell">
      <DocumentMeta title={line.productName} />
      {buyer?.test ? <TestModeNotice /> : null}
      <p className="advertorial__kicker">{texts.kicker}</p>
      <h1>{line.productName}</h1>
      <p className="page-intro__lead">{product.tagline}</p>
      <StoreImage className="offer-hero__image" src={`${line.image}.svg`} preset="hero" alt={line.productName} priority />
      <ul className="offer-sections__benefits">
        {product.benefits.map((benefit) => (
          <li key={benefit}>{benefit}</li>
        ))}
      </ul>
      <p className="bundle-card__price">
        <Money minor={line.priceMinor} currency={line.currency} />
      </p>
      <p className="bundle-card__delivery">{digital ? texts.digitalDelivery : texts.sameParcel}</p>
      <div className="upsell__actions">
        {buyer === null ? (
          <>
            <CheckoutLink bundleId={line.bundleId} label={t("products.choose")} testId="upsell-choose" />
            <NextStepLink to={next} label={texts.decline} testId="upsell-decline" className="upsell__decline" />
          </>
        ) : buyer.state === "open" ? (
          <>
            <UpsellAnswer buyer={buyer} price={price} digital={digital} />
            <Form method="post">
              <button type="submit" name="intent" value="decline" className="link-button upsell__decline" data-testid="upsell-decline">
                {texts.decline}
              </button>
            </Form>
          </>
        ) : (
          <>
            <p className="upsell__state" role="status">
              {buyer.state === "accepted" ? (digital ? buyer.texts.addedDigital : buyer.texts.added) : buyer.texts.closed}
            </p>
            <NextStepLink to={next} label={buyer.texts.continue} testId="upsell-continue" />
          </>
        )}
      </div>
    </section>
  );
}
