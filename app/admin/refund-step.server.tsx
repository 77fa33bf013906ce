import { previewRefund, refundOrder, type RefundRefusal, type RefundResult, type RefundScope } from "../orders/refund-service.server";
import type { Order, OrderLine } from "../orders/order-records.server";
import type { Store } from "../store/store.server";
import type { Operator } from "../operators/audit.server";
import { page, type Page } from "./http.server";
import type { SectionId } from "./views/frame";
import { RefundConfirmView } from "./views/refund-confirm-view";

export const refundRefusals: Record<RefundRefusal, string> = {
  not_paid: "This order has not been paid or is cancelled: there is nothing to refund.",
  unknown_line: "A ticked line is not on this order or has been refunded already. Nothing was refunded.",
  nothing_to_refund: "Nothing is left to refund on this order.",
  above_paid: "That is more than is left of the payment that took it. Nothing was refunded.",
};

export interface RefundRequest {
  order: Order;
  lines: readonly OrderLine[];
  scope: RefundScope;
  reason: string;
  requestKey: string;
  /** The submitted form: its `confirm` and `confirmedMinor` are the operator's yes to an amount. */
  form: URLSearchParams;
  /** Where the confirmation posts, with the fields it carries again. */
  action: string;
  fields: Record<string, string | readonly string[]>;
  cancelHref: string;
  section: SectionId;
}

export type RefundStepOutcome =
  | { kind: "confirm"; page: Page }
  | { kind: "refused"; text: string }
  | { kind: "sent"; result: Exclude<RefundResult, { kind: "refused" }> };

/**
 * A refund in two steps: first the amount it would give back, for the operator to confirm; then,
 * with the operator's yes to that very amount, the refund through the provider. An amount that
 * changed in between (another refund landed) is shown again rather than sent.
 */
export async function refundStep(store: Store, operator: Operator, request: RefundRequest): Promise<RefundStepOutcome> {
  const preview = await previewRefund(store.db, request.order.id, request.scope);
  if (preview.kind === "refused") return { kind: "refused", text: refundRefusals[preview.reason] };
  const confirmed = request.form.get("confirm") === "yes" && Number(request.form.get("confirmedMinor")) === preview.amountMinor;
  if (!confirmed) {
    const names = new Map(request.lines.map((line) => [line.id, line.productName]));
    const confirmation = {
      orderNumber: request.order.number,
      currency: request.order.currency,
      amountMinor: preview.amountMinor,
      lineNames: preview.lineIds.map((id) => names.get(id) ?? `line ${id}`),
      action: request.action,
      fields: request.fields,
      cancelHref: request.cancelHref,
    };
    return { kind: "confirm", page: page(<RefundConfirmView operator={operator} section={request.section} confirmation={confirmation} />) };
  }
  const result = await refundOrder(store.db, store.providers, { orderId: request.order.id, scope: request.scope, reason: request.reason, requestKey: request.requestKey });
  if (result.kind === "refused") return { kind: "refused", text: refundRefusals[result.reason] };
  return { kind: "sent", result };
}
