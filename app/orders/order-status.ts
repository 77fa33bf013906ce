import type { OrderStatus } from "./schema";

/**
 * Which status may follow which (decision 42). A payment may be retried after a decline; a paid
 * order is fulfilled, withdrawn from or refunded; a refund or withdrawal never un-happens.
 */
const transitions: Record<OrderStatus, readonly OrderStatus[]> = {
  pending_payment: ["paid", "payment_failed", "cancelled"],
  payment_failed: ["pending_payment", "paid", "cancelled"],
  paid: ["fulfilled", "partially_refunded", "refunded", "withdrawn", "cancelled"],
  fulfilled: ["partially_refunded", "refunded", "withdrawn"],
  withdrawn: ["partially_refunded", "refunded"],
  partially_refunded: ["partially_refunded", "refunded", "fulfilled", "withdrawn"],
  refunded: [],
  cancelled: [],
};

/** Orders that took no money, or whose sale was called off: every other order with a payment date was a sale. */
export const unpaidStatuses: readonly OrderStatus[] = ["pending_payment", "payment_failed", "cancelled"];

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return transitions[from].includes(to);
}

export class InvalidTransitionError extends Error {
  constructor(from: OrderStatus, to: OrderStatus) {
    super(`An order cannot go from ${from} to ${to}`);
  }
}

export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (!canTransition(from, to)) throw new InvalidTransitionError(from, to);
}
