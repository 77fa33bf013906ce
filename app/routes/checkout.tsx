import { useState } from "react";
import { useActionData, useLoaderData } from "react-router";
import type { Route } from "./+types/checkout";
import { CheckoutForm } from "../checkout/checkout-form-view";
import { loadCheckout, submitCheckout, type CheckoutActionData } from "../checkout/checkout.server";
import { OrderSummary } from "../checkout/order-summary";
import { TestModeNotice } from "../checkout/test-mode-notice";
import { DocumentMeta } from "../market/document-meta";
import { NextStepLink } from "../chrome/next-step-link";

export function loader(args: Route.LoaderArgs) {
  return loadCheckout(args);
}

export function action(args: Route.ActionArgs) {
  return submitCheckout(args);
}

/** The page holds a form token and, after a decline, the buyer's details: never stored by a cache. */
export function headers(): HeadersInit {
  return { "Cache-Control": "private, no-store" };
}

const noValues: Record<string, string> = {};

export default function CheckoutPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<CheckoutActionData>();
  const texts = page.texts.checkout;
  const values: Record<string, string> = (result?.values ?? (page.unavailable ? null : page.values)) ?? noValues;
  // The add-on's box is the buyer's: the summary and the pay button follow it as it changes, and
  // take the state the server sent back whenever the form returns.
  const [bumpTicked, setBumpTicked] = useState(values.bump === "yes");
  const [sentValues, setSentValues] = useState(values);
  if (sentValues !== values) {
    setSentValues(values);
    setBumpTicked(values.bump === "yes");
  }
  if (page.unavailable) {
    return (
      <section className="page-intro">
        <DocumentMeta title={texts.title} />
        <h1 id="checkout-heading">{texts.title}</h1>
        <p className="checkout-error" role="alert" data-testid="checkout-error">
          {page.notice}
        </p>
        <NextStepLink to="offer" label={texts.backToOffer} />
      </section>
    );
  }
  // Applying a code answers with the quotes it gives; the loader's are without one unless the order had it.
  const plainQuote = result?.quote ?? page.quote;
  const bumpQuote = result ? result.bumpQuote : (page.bump?.quote ?? null);
  const quote = bumpTicked && bumpQuote ? bumpQuote : plainQuote;
  return (
    <div className="checkout">
      <DocumentMeta title={texts.title} />
      {page.testMode ? <TestModeNotice /> : null}
      <h1 id="checkout-heading">{texts.heading}</h1>
      <p className="page-intro__lead">{texts.intro}</p>
      <div className="checkout__columns">
        <OrderSummary
          title={texts.summaryTitle}
          lines={quote.lines}
          currency={quote.currency}
          deliveryMinor={quote.totals.deliveryMinor}
          vatMinor={quote.totals.vatMinor}
          totalMinor={quote.totals.totalMinor}
          discount={quote.discount}
          labels={{ ...texts, discountLine: texts.code.line }}
        />
        <CheckoutForm
          texts={texts}
          token={result?.token ?? page.token}
          bundleId={page.bundleId}
          country={page.country}
          methods={page.methods}
          paymentPages={page.paymentPages}
          digital={plainQuote.lines.some((line) => line.kind === "digital")}
          totalMinor={quote.totals.totalMinor}
          quotedTotals={{ plain: plainQuote.totals.totalMinor, bumped: bumpQuote?.totals.totalMinor ?? null }}
          bump={page.bump?.offer ? { ...page.bump.offer, ticked: bumpTicked, onToggle: setBumpTicked } : null}
          values={values}
          errors={result?.errors ?? {}}
          message={result?.message ?? page.message}
          nextAction={result?.nextAction}
          codeError={result?.codeError ?? null}
        />
      </div>
    </div>
  );
}
