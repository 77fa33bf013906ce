import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";

/** The parts of Stripe.js the checkout uses (https://docs.stripe.com/js). */
interface StripeError {
  message?: string;
}
interface StripeElements {
  create(type: "payment"): { mount(target: HTMLElement): void; destroy(): void };
  submit(): Promise<{ error?: StripeError }>;
}
interface StripeJs {
  elements(options: { mode: "payment"; amount: number; currency: string; setupFutureUsage: "off_session" }): StripeElements;
  createConfirmationToken(options: { elements: StripeElements }): Promise<{ confirmationToken?: { id: string }; error?: StripeError }>;
}
declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeJs;
  }
}

export interface StripeConfig {
  publishableKey: string;
  jsUrl: string;
}

let loading: Promise<void> | undefined;

/** Stripe.js from Stripe itself, loaded by the checkout alone and only once. */
function loadStripeJs(src: string): Promise<void> {
  if (window.Stripe) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loading = undefined;
      reject(new Error("Stripe.js could not be loaded"));
    };
    document.head.append(script);
  });
  return loading;
}

/** What the checkout form asks of the element when the buyer pays. */
export interface StripeElementHandle {
  /** The token to send with the form, or the message to show when the element refuses. */
  confirmationToken(): Promise<{ token: string } | { error: string }>;
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
    }),
    [],
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
