import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import { finishNextAction, loadStripeJs, type StripeConfig, type StripeElements, type StripeJs } from "../payments/stripe/stripe-js";

export type { StripeConfig };


/** What the checkout form asks of the element when the buyer pays. */
export interface StripeElementHandle {
  /** The token to send with the form, or the message to show when the element refuses. */
  confirmationToken(): Promise<{ token: string } | { error: string }>;
  /** Finishes the 3-D Secure challenge Stripe left to Stripe.js (`stripe.handleNextAction`). */
  handleNextAction(clientSecret: string): Promise<void>;
}

interface StripePaymentElementProps {
  config: StripeConfig;
  amountMinor: number;
  currency: string;
  /** Shown when Stripe.js cannot be loaded. */
  unavailableText: string;
  /** The element's last refusal, shown under it. */
  error: string | null;
  ref?: Ref<StripeElementHandle>;
}

/**
 * Stripe's Payment Element inside our checkout form: it collects the method, and just before the
 * form is sent it turns into a one-time ConfirmationToken that the server confirms the payment with.
 * The checkout loads this module only when Stripe takes the payment and the buyer has chosen it.
 */
export function StripePaymentElement({ config, amountMinor, currency, unavailableText, error, ref }: StripePaymentElementProps) {
  const host = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ js: StripeJs; elements: StripeElements } | null>(null);
  const [failed, setFailed] = useState(false);

  const { publishableKey, jsUrl } = config;
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
      async confirmationToken() {
        if (!stripe.current) return { error: "" };
        const { js, elements } = stripe.current;
        const submitted = await elements.submit();
        if (submitted.error) return { error: submitted.error.message ?? "" };
        const created = await js.createConfirmationToken({ elements });
        return created.confirmationToken ? { token: created.confirmationToken.id } : { error: created.error?.message ?? "" };
      },
      handleNextAction(clientSecret) {
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
