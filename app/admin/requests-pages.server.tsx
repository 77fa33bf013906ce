import { listPage } from "./list-page";
import { forbidden, noticeFrom, type AdminContext, type AdminRoute } from "./admin-route.server";
import { htmlPage, readForm, redirect } from "./http.server";
import { may } from "./operators.server";
import { listFeedback, listRefundRequests, listWithdrawals, setRefundRequestStatus, setWithdrawalStatus, type StatusChangeResult } from "./queues.server";
import { RequestsView } from "./views/requests-view";
import type { Notice } from "./views/frame";

const notices: Record<string, Notice> = {
  changed: { kind: "ok", text: "Status changed." },
  unchanged: { kind: "ok", text: "It had that status already." },
};

const refusals: Record<Extract<StatusChangeResult, { kind: "refused" }>["reason"], string> = {
  unknown_status: "There is no such status. Nothing was changed.",
  not_found: "There is no such request. Nothing was changed.",
  not_allowed: "That status cannot follow the current one. Nothing was changed.",
};

async function showRequests({ store, operator, url }: AdminContext, notice: Notice | null, status = 200): Promise<Response> {
  const page = (name: string) => listPage(url.searchParams.get(name));
  const [withdrawals, refundRequests, feedback] = await Promise.all([
    listWithdrawals(store.db, page("withdrawals")),
    listRefundRequests(store.db, page("refundRequests")),
    listFeedback(store.db, page("feedback")),
  ]);
  return htmlPage(<RequestsView operator={operator} pages={{ withdrawals, refundRequests, feedback }} query={url.searchParams} notice={notice} />, status);
}

const setters = { withdrawal: setWithdrawalStatus, "refund-request": setRefundRequestStatus } as const;

export const requestRoutes: readonly AdminRoute[] = [
  { method: "GET", pattern: /^\/admin\/requests\/?$/, handle: (context) => showRequests(context, noticeFrom(context.url, notices)) },
  {
    method: "POST",
    pattern: /^\/admin\/requests\/(withdrawal|refund-request)\/([^/]+)$/,
    params: ["kind", "id"],
    async handle(context) {
      const { store, operator, params, request } = context;
      if (!may(operator, "handle_requests")) return forbidden("Your role may not handle requests.");
      const form = await readForm(request);
      const set = setters[params.kind as keyof typeof setters];
      const result = await set(store.db, operator, params.id ?? "", form.get("status") ?? "");
      if (result.kind === "refused") return showRequests(context, { kind: "error", text: refusals[result.reason] }, result.reason === "not_found" ? 404 : 409);
      return redirect(`/admin/requests?done=${result.kind}`);
    },
  },
];
