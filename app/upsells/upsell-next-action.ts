import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import type { BrowserNextAction, StripeConfig } from "../payments/stripe/stripe-js";

/**
 * An upsell charged to the checkout's card may need 3-D Secure that Stripe leaves to Stripe.js:
 * the upsell page has no Payment Element, so Stripe.js is loaded only now, finishes the challenge
 * in Stripe's modal, and the return path asks Stripe on the server how the payment ended.
 * True while the challenge is open.
 */
export function useStripeNextAction(nextAction: (BrowserNextAction & { stripe: StripeConfig }) | undefined): boolean {
  const navigate = useNavigate();
  const [finished, setFinished] = useState<BrowserNextAction>();
  useEffect(() => {
    if (!nextAction) return;
    void import("../payments/stripe/stripe-js")
      .then(({ finishNextAction }) => finishNextAction(nextAction.stripe, nextAction.clientSecret))
      .catch(() => undefined)
      .then(() => {
        setFinished(nextAction);
        void navigate(nextAction.returnPath);
      });
  }, [nextAction, navigate]);
  return nextAction !== undefined && finished !== nextAction;
}
