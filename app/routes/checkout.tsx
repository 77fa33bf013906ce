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

export default function CheckoutPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<CheckoutActionData>();
  const texts = page.texts.checkout;
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
  // Applying a code answers with the quote it gives; the loader's is always without one.
  const quote = result?.quote ?? page.quote;
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
          digital={quote.lines.some((line) => line.kind === "digital")}
          totalMinor={quote.totals.totalMinor}
          values={result?.values ?? page.values}
          errors={result?.errors ?? {}}
          message={result?.message ?? page.message}
          nextAction={result?.nextAction}
          codeError={result?.codeError ?? null}
        />
      </div>
    </div>
  );
}
