import { randomUUID } from "node:crypto";
import { recordShipment } from "../parcels/shipments.server";
import { linksOfOrder, reissueDownloadLinks, type ReissueResult } from "../downloads/links.server";
import { forbidden, noticeFrom, notFound, param, type AdminContext, type AdminRoute, type Answer } from "./admin-route.server";
import { recordAudit } from "../operators/audit.server";
import { page, redirect } from "./http.server";
import { readForm } from "./form.server";
import { refundStep } from "./refund-step.server";
import { may } from "./operators.server";
import { listOrders, orderDetail, parseOrderFilter } from "./order-queries.server";
import { OrderView, refundReasons, type RefundReason } from "./views/order-view";
import { OrdersView } from "./views/orders-view";
import { shipmentRefusalText } from "./views/fulfilment-view";
import type { Notice } from "./views/frame";

const notices: Record<string, Notice> = {
  refunded: { kind: "ok", text: "Refunded through the payment provider. The customer gets a refund e-mail." },
  refund_incomplete: { kind: "error", text: "The payment provider has not confirmed all of the refund yet: it stays pending. Try again in a moment." },
  shipment_recorded: { kind: "ok", text: "Parcel recorded; the order is fulfilled. The buyer gets an e-mail with the tracking link." },
  shipment_corrected: { kind: "ok", text: "Number corrected. The buyer gets an e-mail with the corrected tracking link." },
  shipment_known: { kind: "ok", text: "This order has that carrier and number already: nothing changed and no e-mail was sent." },
  downloads_sent: { kind: "ok", text: "Download e-mail queued: the buyer gets the links again, each counted afresh from today." },
  downloads_already_sent: { kind: "ok", text: "This form was sent already: the download e-mail went out once." },
};

const reissueRefusals: Record<Extract<ReissueResult, { kind: "refused" }>["reason"], string> = {
  unknown_order: "There is no order with this number.",
  erased: "The buyer's data is erased: there is nobody to send links to.",
  not_delivered: "This order is not paid, or was refunded, withdrawn or cancelled: it has no downloads to send.",
  no_digital_line: "No digital item of this order is still held by the buyer (refunded ones get no link).",
};

const orderNumber = (context: AdminContext) => param(context.params, "number", /^VN-[A-Z0-9]{4}-[A-Z0-9]{4}$/i);

async function showOrder(context: AdminContext, notice: Notice | null, status = 200): Promise<Answer> {
  const detail = await orderDetail(context.store.db, orderNumber(context));
  if (!detail) return notFound("There is no order with this number.");
  const downloads = await linksOfOrder(context.store.db, detail.order.id);
  return page(<OrderView operator={context.operator} detail={detail} refundKey={randomUUID()} notice={notice} downloads={downloads} />, status);
}

async function refund(context: AdminContext): Promise<Answer> {
  const { store, operator } = context;
  const number = orderNumber(context);
  if (!may(operator, "refund")) return forbidden("Only an owner may refund. Nothing was refunded.");
  const detail = await orderDetail(store.db, number);
  if (!detail) return notFound("There is no order with this number.");
  const form = await readForm(context.request);
  const reason = form.get("reason") ?? "";
  const requestKey = form.get("requestKey") ?? "";
  const lineIds = form.getAll("line").map(Number);
  if (!(reason in refundReasons) || !/^[0-9a-f-]{36}$/.test(requestKey) || lineIds.some((id) => !Number.isSafeInteger(id) || id <= 0)) {
    return showOrder(context, { kind: "error", text: "The refund form was incomplete: choose a reason and try again. Nothing was refunded." }, 400);
  }
  const note = (form.get("note") ?? "").trim().slice(0, 200);
  const reasonText = `${refundReasons[reason as RefundReason]}${note ? `: ${note}` : ""}`;
  const step = await refundStep(store, operator, {
    order: detail.order,
    lines: detail.lines,
    scope: lineIds.length > 0 ? { kind: "lines", lineIds } : { kind: "order" },
    reason: reasonText,
    requestKey,
    form,
    action: `/admin/orders/${detail.order.number}/refund`,
    fields: { reason, note, requestKey, line: lineIds.map(String) },
    cancelHref: `/admin/orders/${detail.order.number}`,
    section: "orders",
  });
  if (step.kind === "confirm") return step.page;
  if (step.kind === "refused") return showOrder(context, { kind: "error", text: step.text }, 409);
  await recordAudit(store.db, operator, "refund", {
    orderId: detail.order.id,
    detail: { scope: lineIds.length > 0 ? `lines ${lineIds.join(", ")}` : "order", reason, outcome: step.result.kind, request: requestKey },
  });
  return redirect(`/admin/orders/${detail.order.number}?done=${step.result.kind === "refunded" ? "refunded" : "refund_incomplete"}`);
}

async function addShipment(context: AdminContext): Promise<Answer> {
  const { store, operator } = context;
  const number = orderNumber(context);
  if (!may(operator, "fulfil")) return forbidden("Your role may not record parcels.");
  const form = await readForm(context.request);
  const corrects = Number(form.get("corrects") ?? "");
  const correcting = Number.isSafeInteger(corrects) && corrects > 0;
  const outcome = await recordShipment(
    store.db,
    operator,
    { orderNumber: number, carrier: form.get("carrier") ?? "", trackingNumber: form.get("trackingNumber") ?? "", corrects: correcting ? corrects : null },
    { source: "order-page", reviewDelayDays: store.settings.reviewInvitationDelayDays },
  );
  if (outcome.kind === "refused" && outcome.reason === "unknown_order") return notFound("There is no order with this number.");
  if (outcome.kind === "refused") return showOrder(context, { kind: "error", text: `Nothing was recorded: ${shipmentRefusalText(outcome)}.` }, 409);
  // A correction whose wrong number never went out is e-mailed as a plain shipping e-mail, but it is still a correction here.
  const done = outcome.kind === "unchanged" ? "shipment_known" : correcting ? "shipment_corrected" : "shipment_recorded";
  return redirect(`/admin/orders/${outcome.orderNumber}?done=${done}`);
}

async function resendDownloads(context: AdminContext): Promise<Answer> {
  const { store, operator } = context;
  const number = orderNumber(context);
  if (!may(operator, "fulfil")) return forbidden("Your role may not send download e-mails.");
  const detail = await orderDetail(store.db, number);
  if (!detail) return notFound("There is no order with this number.");
  const requestId = (await readForm(context.request)).get("requestId") ?? "";
  if (!/^[0-9a-f-]{36}$/.test(requestId)) return showOrder(context, { kind: "error", text: "The form was incomplete: reload the page and try again. Nothing was sent." }, 400);
  const result = await reissueDownloadLinks(store.db, operator, detail.order.id, requestId, store.settings.downloads);
  if (result.kind === "refused") return showOrder(context, { kind: "error", text: `Nothing was sent: ${reissueRefusals[result.reason]}` }, 409);
  return redirect(`/admin/orders/${detail.order.number}?done=${result.kind === "sent" ? "downloads_sent" : "downloads_already_sent"}`);
}

export const orderRoutes: readonly AdminRoute[] = [
  {
    path: "orders",
    nav: { label: "Orders", permission: "view" },
    async loader({ store, operator, url }) {
      const filter = parseOrderFilter(url.searchParams);
      const { rows, total, pages } = await listOrders(store.db, filter);
      return page(<OrdersView operator={operator} filter={filter} rows={rows} total={total} pages={pages} />);
    },
  },
  // Order numbers are matched whatever their case, as an operator may type them.
  { path: "orders/:number", caseSensitive: false, loader: (context) => showOrder(context, noticeFrom(context.url, notices)) },
  { path: "orders/:number/refund", caseSensitive: false, action: refund },
  { path: "orders/:number/shipments", caseSensitive: false, action: addShipment },
  { path: "orders/:number/download-links", caseSensitive: false, action: resendDownloads },
];
