import { listPage } from "./list-page";
import { forbidden, noticeFrom, type AdminContext, type AdminRoute, type Answer } from "./admin-route.server";
import { page, redirect } from "./http.server";
import { readForm } from "./form.server";
import { may } from "./operators.server";
import { randomUUID } from "node:crypto";
import { recordAudit } from "../operators/audit.server";
import { orderById, linesOf } from "../orders/order-records.server";
import { refundStep } from "./refund-step.server";
import { refundReasons } from "./views/order-view";
import {
  listFeedback,
  listRefundRequests,
  listWithdrawals,
  markWithdrawalRefunded,
  setRefundRequestStatus,
  setWithdrawalStatus,
  withdrawalForRefund,
  type StatusChangeResult,
} from "./queues.server";
import { RequestsView } from "./views/requests-view";
import type { Notice } from "./views/frame";

const notices: Record<string, Notice> = {
  changed: { kind: "ok", text: "Status changed." },
  refunded: { kind: "ok", text: "Refunded through the payment provider; the withdrawal is marked refunded. The customer gets a refund e-mail." },
  refund_incomplete: { kind: "error", text: "The payment provider has not confirmed all of the refund yet: it stays pending, and the withdrawal stays received until it has." },
  unchanged: { kind: "ok", text: "It had that status already." },
};

const refusals: Record<Extract<StatusChangeResult, { kind: "refused" }>["reason"], string> = {
  unknown_status: "There is no such status. Nothing was changed.",
  not_found: "There is no such request. Nothing was changed.",
  not_allowed: "That status cannot follow the current one. Nothing was changed.",
};

async function showRequests({ store, operator, url }: AdminContext, notice: Notice | null, status = 200): Promise<Answer> {
  const pageOf = (name: string) => listPage(url.searchParams.get(name));
  const [withdrawals, refundRequests, feedback] = await Promise.all([
    listWithdrawals(store.db, pageOf("withdrawals")),
    listRefundRequests(store.db, pageOf("refundRequests")),
    listFeedback(store.db, pageOf("feedback")),
  ]);
  return page(<RequestsView operator={operator} pages={{ withdrawals, refundRequests, feedback }} query={url.searchParams} notice={notice} refundKey={randomUUID} />, status);
}

const setters = { withdrawal: setWithdrawalStatus, "refund-request": setRefundRequestStatus } as const;

/**
 * A withdrawal's refund, from its row in the queue: the lines the operator ticked, through the
 * provider, confirmed with the amount first; the withdrawal is `refunded` only once the refund is.
 */
async function refundWithdrawal(context: AdminContext): Promise<Answer> {
  const { store, operator, params } = context;
  if (!may(operator, "refund")) return forbidden("Only an owner may refund. Nothing was refunded.");
  const withdrawal = await withdrawalForRefund(store.db, params.id ?? "");
  if (!withdrawal) return showRequests(context, { kind: "error", text: refusals.not_found }, 404);
  const order = withdrawal.orderId ? await orderById(store.db, withdrawal.orderId) : undefined;
  if (!order) return showRequests(context, { kind: "error", text: "This withdrawal matched no order: there is nothing to refund here. Nothing was refunded." }, 409);
  if (withdrawal.status !== "received") return showRequests(context, { kind: "error", text: `This withdrawal is ${withdrawal.status} already. Nothing was refunded.` }, 409);
  const form = await readForm(context.request);
  const requestKey = form.get("requestKey") ?? "";
  const lineIds = form.getAll("line").map(Number);
  if (!/^[0-9a-f-]{36}$/.test(requestKey) || lineIds.some((id) => !Number.isSafeInteger(id) || id <= 0)) {
    return showRequests(context, { kind: "error", text: "The refund form was incomplete: reload the page and try again. Nothing was refunded." }, 400);
  }
  if (lineIds.length === 0) return showRequests(context, { kind: "error", text: `Tick the lines of ${order.number} that the withdrawal concerns. Nothing was refunded.` }, 400);
  const step = await refundStep(store, operator, {
    order,
    lines: await linesOf(store.db, order.id),
    scope: { kind: "lines", lineIds },
    reason: `${refundReasons.withdrawal} (${withdrawal.reference})`,
    requestKey,
    form,
    action: `/admin/requests/withdrawal/${withdrawal.id}/refund`,
    fields: { requestKey, line: lineIds.map(String) },
    cancelHref: "/admin/requests",
    section: "requests",
  });
  if (step.kind === "confirm") return step.page;
  if (step.kind === "refused") return showRequests(context, { kind: "error", text: step.text }, 409);
  await recordAudit(store.db, operator, "refund", { orderId: order.id, detail: { scope: `lines ${lineIds.join(", ")}`, reason: "withdrawal", withdrawal: withdrawal.reference, outcome: step.result.kind, request: requestKey } });
  if (step.result.kind !== "refunded") return redirect("/admin/requests?done=refund_incomplete");
  await markWithdrawalRefunded(store.db, operator, withdrawal.id, step.result.refunds.map((refund) => refund.id));
  return redirect("/admin/requests?done=refunded");
}

/** A withdrawal's or a refund request's new status, chosen in its row of the queue. */
function changeStatus(kind: keyof typeof setters) {
  return async (context: AdminContext): Promise<Answer> => {
    const { store, operator, params, request } = context;
    if (!may(operator, "handle_requests")) return forbidden("Your role may not handle requests.");
    const form = await readForm(request);
    const result = await setters[kind](store.db, operator, params.id ?? "", form.get("status") ?? "");
    if (result.kind === "refused") return showRequests(context, { kind: "error", text: refusals[result.reason] }, result.reason === "not_found" ? 404 : 409);
    return redirect(`/admin/requests?done=${result.kind}`);
  };
}

export const requestRoutes: readonly AdminRoute[] = [
  { path: "requests", nav: { label: "Withdrawals & requests", permission: "view" }, loader: (context) => showRequests(context, noticeFrom(context.url, notices)) },
  { path: "requests/withdrawal/:id/refund", action: refundWithdrawal },
  { path: "requests/withdrawal/:id", action: changeStatus("withdrawal") },
  { path: "requests/refund-request/:id", action: changeStatus("refund-request") },
];
