/** The `dispute_outcome.outcome_code` with which PayPal resolves a dispute in the buyer's favour, the money taken back from the store. */
export const payPalLostDisputeOutcomes = ["RESOLVED_BUYER_FAVOUR"] as const;
