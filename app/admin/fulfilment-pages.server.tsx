import { noticeFrom, forbidden, type AdminRoute } from "./admin-route.server";
import { importTrackingCsv, type ImportedLine } from "../parcels/tracking-import.server";
import { fulfilmentCsv, pendingFulfilment } from "../parcels/fulfilment.server";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { download, page } from "./http.server";
import { BadForm, readFormWithFile } from "./form.server";
import { may } from "./operators.server";
import { FulfilmentView } from "./views/fulfilment-view";
import type { Notice } from "./views/frame";

const notices: Record<string, Notice> = {};

/** The uploaded CSV as text; the server has capped the body at the back office's form size already. */
async function readTrackingFile(request: Request): Promise<string> {
  const pieces: Buffer[] = [];
  const collect = new Writable({
    write(piece: Buffer, _encoding, done) {
      pieces.push(piece);
      done();
    },
  });
  const form = await readFormWithFile(request, { name: "tracking", keepBytes: 32 * 1024, receive: (file) => pipeline(file, collect), refusal: "The tracking file is sent as multipart/form-data." });
  if (!form.fileCame) throw new BadForm("Choose the warehouse's tracking CSV to import.");
  return Buffer.concat(pieces).toString("utf8");
}

export const fulfilmentRoutes: readonly AdminRoute[] = [
  {
    path: "fulfilment",
    nav: { label: "Fulfilment", permission: "view" },
    async loader({ store, operator, url }) {
      return page(<FulfilmentView operator={operator} rows={await pendingFulfilment(store.db)} now={new Date()} notice={noticeFrom(url, notices)} />);
    },
    async action({ store, operator, request }) {
      if (!may(operator, "fulfil")) return forbidden("Your role may not mark orders fulfilled.");
      const imported = await importTrackingCsv(store.db, operator, await readTrackingFile(request), { reviewDelayDays: store.settings.reviewInvitationDelayDays });
      const answer = async (notice: Notice, status: number, lines?: ImportedLine[]) =>
        page(<FulfilmentView operator={operator} rows={await pendingFulfilment(store.db)} now={new Date()} notice={notice} imported={lines} />, status);
      if (imported.kind === "unreadable") return answer({ kind: "error", text: `Nothing was imported: ${imported.reason}.` }, 400);
      const count = (kind: ImportedLine["outcome"]["kind"]) => imported.lines.filter((line) => line.outcome.kind === kind).length;
      const [recorded, unchanged, refused] = [count("recorded"), count("unchanged"), count("refused")];
      const text = `${recorded} parcel${recorded === 1 ? "" : "s"} recorded, ${unchanged} already known, ${refused} line${refused === 1 ? "" : "s"} refused (see below).`;
      return answer({ kind: refused > 0 ? "error" : "ok", text }, 200, imported.lines);
    },
  },
  {
    path: "fulfilment.csv",
    async loader({ store }) {
      const day = new Date().toISOString().slice(0, 10);
      return download(fulfilmentCsv(await pendingFulfilment(store.db)), "text/csv; charset=utf-8", `fulfilment-${day}.csv`);
    },
  },
];
