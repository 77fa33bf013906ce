import { noticeFrom, forbidden, type AdminRoute } from "./admin-route.server";
import { importTrackingCsv, type ImportedLine } from "../parcels/tracking-import.server";
import { fulfilmentCsv, pendingFulfilment } from "../parcels/fulfilment.server";
import { BadForm, download, htmlPage } from "./http.server";
import { may } from "./operators.server";
import { FulfilmentView } from "./views/fulfilment-view";
import type { Notice } from "./views/frame";

const notices: Record<string, Notice> = {};

/** The uploaded CSV as text; the front door has capped the body's size already. */
async function readTrackingFile(request: Request): Promise<string> {
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) throw new BadForm("The tracking file is sent as multipart/form-data.");
  const file = (await request.formData()).get("tracking");
  if (!(file instanceof Blob)) throw new BadForm("Choose the warehouse's tracking CSV to import.");
  return file.text();
}

export const fulfilmentRoutes: readonly AdminRoute[] = [
  {
    method: "GET",
    pattern: /^\/admin\/fulfilment\/?$/,
    async handle({ store, operator, url }) {
      return htmlPage(<FulfilmentView operator={operator} rows={await pendingFulfilment(store.db)} now={new Date()} notice={noticeFrom(url, notices)} />);
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
      const imported = await importTrackingCsv(store.db, operator, await readTrackingFile(request), { reviewDelayDays: store.settings.reviewInvitationDelayDays });
      const page = async (notice: Notice, status: number, lines?: ImportedLine[]) =>
        htmlPage(<FulfilmentView operator={operator} rows={await pendingFulfilment(store.db)} now={new Date()} notice={notice} imported={lines} />, status);
      if (imported.kind === "unreadable") return page({ kind: "error", text: `Nothing was imported: ${imported.reason}.` }, 400);
      const count = (kind: ImportedLine["outcome"]["kind"]) => imported.lines.filter((line) => line.outcome.kind === kind).length;
      const [recorded, unchanged, refused] = [count("recorded"), count("unchanged"), count("refused")];
      const text = `${recorded} parcel${recorded === 1 ? "" : "s"} recorded, ${unchanged} already known, ${refused} line${refused === 1 ? "" : "s"} refused (see below).`;
      return page({ kind: refused > 0 ? "error" : "ok", text }, 200, imported.lines);
    },
  },
];
