import type { OrderStatus } from "./schema";

/**
 * The events of an order's log (`order_events`), each with the shape of its detail: what happened,
 * without personal data. The names are stored as they are here, so renaming one needs a data
 * migration; adding one is a line here (docs/decisions/0040-tables-in-their-domains.md).
 */

/** What a payment's events name: the payment, its method and its amount in minor units. */
type PaymentDetail = { payment: string; method: string; amount: number };
type NoDetail = Record<string, never>;

export type OrderEventDetails = {
  order_created: { total: number; currency: string; lines: number };
  payment_started: { method: string; amount: number; attempt: number };
  /** The buyer paid another way, or placed the checkout's form again as a new order (`newOrder`). */
  payment_superseded: { payment: string; method: string } | { payment: string; method: string; newOrder: string };
  payment_retried: NoDetail;
  payment_requires_action: PaymentDetail;
  payment_processing: PaymentDetail;
  payment_succeeded: PaymentDetail;
  payment_declined: PaymentDetail & { code: string };
  /** An attempt the buyer had left was charged after all, and became the order's payment instead of the new one. */
  payment_finished_elsewhere: PaymentDetail & { instead: string; insteadMethod: string };
  payment_cancelled_at_provider: { payment: string; method: string; providerRef: string | null };
  /**
   * The provider's total refunded for a payment; `elsewhere` is the part given back outside the store
   * (its dashboard), booked as a refund.
   */
  payment_refunded: { payment: string; refunded: number } | { payment: string; refunded: number; elsewhere: number; refundedInAll: number };
  upsell_shown: { step: string };
  upsell_declined: { step: string };
  upsell_payment_started: { step: string; bundle: string; amount: number; attempt: number };
  upsell_payment_requires_action: PaymentDetail & { step: string };
  upsell_payment_processing: PaymentDetail & { step: string };
  upsell_payment_declined: PaymentDetail & { step: string };
  upsell_accepted: { step: string; bundle: string; amount: number; payment: string };
  funnel_ended: NoDetail;
  refund_requested: { reason: string };
  refund_succeeded: { amount: number; refundedInAll: number; reason: string };
  refund_failed: { refund: string; amount: number; reason: string };
  /** Money taken for an attempt the store had closed, sent back (`reason`: `paid_another_way` or `attempt_closed`). */
  stray_charge_refunded: StrayCharge & { refund: string; refundStatus: "pending" | "succeeded" };
  /** From the refund's own event (`refund`), or from the provider's total refunded for the payment (`refunded`). */
  stray_charge_refund_confirmed: { payment: string; refund: string; amount: number } | { payment: string; refunded: number };
  stray_charge_refund_failed: (StrayCharge | { payment: string; refund: string; amount: number }) & { failure: string };
  dispute_opened: { payment: string; dispute: string };
  dispute_closed: { payment: string; dispute: string; outcome: string };
  /** `status`: the order's status when it stayed as it was (not paid or fulfilled). */
  withdrawal_received: { reference: string } | { reference: string; status: OrderStatus };
  /** The lines sent to the warehouse (`status`: the order's, when a refund had changed it before), or the seed's. */
  fulfilled: { lines: number } | { lines: number; status: OrderStatus } | { by: "seed" };
  /** A parcel handed to a carrier (`source`: the order's page or the warehouse's CSV), or one correcting an earlier one's carrier or number. */
  shipment_recorded: Shipment;
  shipment_corrected: Shipment & { corrects: number };
  download_started: { line: number };
  download_links_reissued: { links: number; days: number; downloads: number };
};

type StrayCharge = PaymentDetail & { providerRef: string; reason: string };
type Shipment = { shipment: number; carrier: string; source: string };

export type OrderEventType = keyof OrderEventDetails;

/** The stored names the reports find events by in their queries. */
export const orderEventType = {
  upsellShown: "upsell_shown",
} as const satisfies Record<string, OrderEventType>;
