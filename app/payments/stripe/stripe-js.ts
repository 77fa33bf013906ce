/**
 * Stripe.js in the buyer's browser (https://docs.stripe.com/js): loaded from Stripe itself, once,
 * by the pages that take a payment through it (the checkout's Payment Element, and an upsell whose
 * card asks for 3-D Secure in the page).
 */

export interface StripeError {
  message?: string;
}
export interface StripeElements {
  create(type: "payment"): { mount(target: HTMLElement): void; destroy(): void };
  submit(): Promise<{ error?: StripeError }>;
}
export interface StripeJs {
  elements(options: { mode: "payment"; amount: number; currency: string; setupFutureUsage: "off_session" }): StripeElements;
  createConfirmationToken(options: { elements: StripeElements }): Promise<{ confirmationToken?: { id: string }; error?: StripeError }>;
  /** docs.stripe.com/js/payment_intents/handle_next_action: resolves `{ paymentIntent }` or `{ error }`, rejects for an intent not in `requires_action`. */
  handleNextAction(options: { clientSecret: string }): Promise<{ paymentIntent?: { id: string; status: string }; error?: StripeError }>;
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

export type { BrowserNextAction } from "../provider";

let loading: Promise<void> | undefined;

/** Stripe.js from Stripe itself, loaded only once. */
export function loadStripeJs(src: string): Promise<void> {
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

/**
 * Finishes a `use_stripe_sdk` next action (3-D Secure in a modal of Stripe's) with the intent's
 * client secret: in the checkout with the Payment Element's Stripe.js; in a page without it (an
 * upsell charged to the checkout's card, `payments/browser-next-action.ts`) with Stripe.js loaded
 * now, as the page settings say. Whatever it resolves, the server asks Stripe how the payment
 * ended: the browser's word is never taken for it.
 */
export async function finishNextAction(settings: unknown, clientSecret: string, stripe?: StripeJs): Promise<void> {
  let js = stripe;
  if (!js) {
    const config = settings as StripeConfig;
    await loadStripeJs(config.jsUrl);
    if (!window.Stripe) throw new Error("Stripe.js could not be loaded");
    js = window.Stripe(config.publishableKey);
  }
  await js.handleNextAction({ clientSecret });
}
