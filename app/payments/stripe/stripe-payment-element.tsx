import { useEffect, useImperativeHandle, useRef, useState } from "react";
import type { CheckoutPageProps } from "../checkout-part";
import { finishNextAction, loadStripeJs, type StripeConfig, type StripeElements, type StripeJs } from "./stripe-js";

/**
 * Stripe's Payment Element inside our checkout form: it collects the method, and just before the
 * form is sent it turns into a one-time ConfirmationToken (the `stripeToken` field) that the server
 * confirms the payment with. The checkout loads this module only when Stripe takes the payment and
 * the buyer has chosen it (`stripeCheckout.page`).
 */
export default function StripePaymentElement({ settings, amountMinor, currency, unavailableText, error, ref }: CheckoutPageProps) {
  const host = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ js: StripeJs; elements: StripeElements } | null>(null);
  const [failed, setFailed] = useState(false);

  const { publishableKey, jsUrl } = settings as StripeConfig;
  useEffect(() => {
    if (!host.current) return;
    let element: { destroy(): void } | undefined;
    let cancelled = false;
    loadStripeJs(jsUrl).then(
      () => {
        if (cancelled || !window.Stripe || !host.current) return;
        const js = window.Stripe(publishableKey);
        const elements = js.elements({ mode: "payment", amount: amountMinor, currency: currency.toLowerCase(), setupFutureUsage: "off_session" });
        const payment = elements.create("payment");
        payment.mount(host.current);
        element = payment;
        stripe.current = { js, elements };
      },
      () => setFailed(true),
    );
    return () => {
      cancelled = true;
      element?.destroy();
      stripe.current = null;
    };
  }, [publishableKey, jsUrl, amountMinor, currency]);

  useImperativeHandle(
    ref,
    () => ({
      async prepare() {
        if (!stripe.current) return { error: "" };
        const { js, elements } = stripe.current;
        const submitted = await elements.submit();
        if (submitted.error) return { error: submitted.error.message ?? "" };
        const created = await js.createConfirmationToken({ elements });
        return created.confirmationToken ? { fields: { stripeToken: created.confirmationToken.id } } : { error: created.error?.message ?? "" };
      },
      // 3-D Secure that Stripe left to Stripe.js (`stripe.handleNextAction`), in Stripe's modal.
      finishNextAction(clientSecret) {
        return finishNextAction({ publishableKey, jsUrl }, clientSecret, stripe.current?.js);
      },
    }),
    [publishableKey, jsUrl],
  );

  return (
    <>
      <div ref={host} className="stripe-element" data-testid="stripe-element" />
      {failed || error !== null ? (
        <p className="field-error" role="alert">
          {failed ? unavailableText : error}
        </p>
      ) : null}
    </>
  );
}
