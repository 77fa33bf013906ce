import type { FinishNextAction } from "../browser-next-action";
import { finishNextAction as finishWithStripeJs, type StripeConfig } from "./stripe-js";

/** A `use_stripe_sdk` next action in a page without the Payment Element (an upsell charged to the checkout's card). */
export const finishNextAction: FinishNextAction = (settings, clientSecret) => finishWithStripeJs(settings as StripeConfig, clientSecret);
