import { noticeFrom, forbidden, type AdminRoute } from "./admin-route.server";
import { fulfilmentCsv, markFulfilled, pendingFulfilment } from "./fulfilment.server";
import { download, htmlPage, readForm } from "./http.server";
import { may } from "./operators.server";
import { FulfilmentView, fulfilmentRefusals } from "./views/fulfilment-view";
import type { Notice } from "./views/frame";

const notices: Record<string, Notice> = {};

export const fulfilmentRoutes: readonly AdminRoute[] = [
  {
    method: "GET",
    pattern: /^\/admin\/fulfilment\/?$/,
    async handle({ store, operator, url }) {
      return htmlPage(<FulfilmentView operator={operator} rows={await pendingFulfilment(store.db)} notice={noticeFrom(url, notices)} />);
    },
  },
  {
    method: "GET",
    pattern: /^\/admin\/fulfilment\.csv$/,
    async handle({ store }) {
      const day = new Date().toISOString().slice(0, 10);
      return download(fulfilmentCsv(await pendingFulfilment(store.db)), "text/csv; charset=utf-8", `fulfilment-${day}.csv`);
    },
  },
  {
    method: "POST",
    pattern: /^\/admin\/fulfilment\/?$/,
    async handle({ store, operator, request }) {
      if (!may(operator, "fulfil")) return forbidden("Your role may not mark orders fulfilled.");
      const form = await readForm(request);
      const result = await markFulfilled(store.db, operator, form.getAll("order"), { reviewDelayDays: store.settings.reviewInvitationDelayDays });
      const parts = [
        result.fulfilled.length > 0 ? `Marked fulfilled: ${result.fulfilled.join(", ")}.` : "No order was marked fulfilled.",
        ...result.skipped.map((skip) => `${skip.number ?? "An unknown order"} was not: ${fulfilmentRefusals[skip.reason]}.`),
      ];
      const notice: Notice = { kind: result.skipped.length > 0 || result.fulfilled.length === 0 ? "error" : "ok", text: parts.join(" ") };
      return htmlPage(<FulfilmentView operator={operator} rows={await pendingFulfilment(store.db)} notice={notice} />, result.fulfilled.length === 0 ? 409 : 200);
    },
  },
];
