/**
 * The dispute's `status` with which Stripe closes a dispute the store lost. Stripe sends no
 * `charge.refunded` then, so the order stays `paid` and only the dispute tells that nothing was
 * earned (docs/decisions/0031-money-after-the-charge.md).
 */
export const stripeLostDisputeOutcomes = ["lost"] as const;
