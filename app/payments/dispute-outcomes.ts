import { payPalLostDisputeOutcomes } from "./paypal/paypal-dispute-outcomes";
import { stripeLostDisputeOutcomes } from "./stripe/stripe-dispute-outcomes";

/**
 * The words with which a provider says a dispute closed with the money taken back from the store,
 * each provider's own (its `<id>-dispute-outcomes.ts` says where they come from). A list of its own
 * rather than a member of the providers' descriptions, because a query of the warehouse and of the
 * downloads reads it, where the running store's providers are not at hand.
 */
export const lostDisputeOutcomes: readonly string[] = [...stripeLostDisputeOutcomes, ...payPalLostDisputeOutcomes];
