import { describe, expect, it } from "vitest";
import { orderStatuses, type OrderStatus } from "./schema";
import { assertTransition, canTransition, InvalidTransitionError } from "./order-status";

const allowed: [OrderStatus, OrderStatus][] = [
  ["pending_payment", "paid"],
  ["pending_payment", "payment_failed"],
  ["pending_payment", "cancelled"],
  ["payment_failed", "pending_payment"],
  ["payment_failed", "paid"],
  ["paid", "fulfilled"],
  ["paid", "withdrawn"],
  ["paid", "refunded"],
  ["paid", "partially_refunded"],
  ["fulfilled", "refunded"],
  ["fulfilled", "withdrawn"],
  ["withdrawn", "refunded"],
  ["partially_refunded", "partially_refunded"],
  ["partially_refunded", "refunded"],
];

const refused: [OrderStatus, OrderStatus][] = [
  ["paid", "pending_payment"],
  ["paid", "payment_failed"],
  ["fulfilled", "paid"],
  ["fulfilled", "cancelled"],
  ["withdrawn", "paid"],
  ["withdrawn", "fulfilled"],
  ["pending_payment", "fulfilled"],
  ["pending_payment", "refunded"],
  ["cancelled", "paid"],
  ["cancelled", "pending_payment"],
  // A refund never un-happens.
  ...orderStatuses.map((to): [OrderStatus, OrderStatus] => ["refunded", to]),
];

describe("order status transitions", () => {
  it.each(allowed)("%s → %s is allowed", (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    expect(() => assertTransition(from, to)).not.toThrow();
  });

  it.each(refused)("%s → %s is refused", (from, to) => {
    expect(canTransition(from, to)).toBe(false);
    expect(() => assertTransition(from, to)).toThrow(InvalidTransitionError);
    expect(() => assertTransition(from, to)).toThrow(`An order cannot go from ${from} to ${to}`);
  });
});
