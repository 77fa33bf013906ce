import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { addDigitalFile, fileById, filesByProduct } from "../downloads/digital-files.server";
import { contentDisposition, pulled } from "../downloads/download-handler.server";
import { forbidden, MessageView, noticeFrom, notFound, param, type AdminContext, type AdminRoute, type Answer } from "./admin-route.server";
import { recordAudit } from "../operators/audit.server";
import { htmlPage, page, redirect } from "./http.server";
import { readFormWithFile } from "./form.server";
import { may } from "./operators.server";
import { FilesView } from "./views/files-view";
import type { Notice } from "./views/frame";

/** The largest upload the back office takes (the front door's limit for this page); larger files go through the command line. */
export const backOfficeUploadMb = 100;

const notices: Record<string, Notice> = {
  uploaded: { kind: "ok", text: "Stored: the new file is the current version, and buyers get it from now on." },
};

async function showFiles(context: AdminContext, notice: Notice | null, status = 200): Promise<Answer> {
  const { store, operator } = context;
  return page(<FilesView operator={operator} products={await filesByProduct(store.db)} canUpload={may(operator, "fulfil")} maxUploadMb={backOfficeUploadMb} notice={notice} />, status);
}

/**
 * An upload is streamed to a temporary file (a piece at a time, as fast as the disk takes it: memory
 * stays flat however large the file) and judged there like the command line's: by content, whole,
 * within the size limit. A refusal says why and leaves the current version in place. The body is
 * read only here, after the back office has checked the session and the origin.
 */
async function upload(context: AdminContext): Promise<Answer> {
  const { store, operator, request } = context;
  if (!may(operator, "fulfil")) return forbidden("Your role may not upload files.");
  const path = join(tmpdir(), `upload-${randomUUID()}`);
  try {
    // One byte more than the limit is kept, so that the file is refused as too large by the check below.
    const form = await readFormWithFile(request, {
      name: "file",
      keepBytes: store.settings.downloads.fileMaxBytes + 1,
      receive: (file) => pipeline(file, createWriteStream(path)),
      refusal: "The file is sent as multipart/form-data.",
    });
    if (form.fileBytes === 0) return showFiles(context, { kind: "error", text: "Choose a file to upload. Nothing was stored." }, 400);
    const productId = form.fields.get("product") ?? "";
    const result = await addDigitalFile(store.db, store.files, { productId, locale: form.fields.get("locale") || null, path, uploadedBy: operator.email }, { maxBytes: store.settings.downloads.fileMaxBytes });
    if (result.kind === "refused") return showFiles(context, { kind: "error", text: `Not stored: ${result.message} The current file stays as it was.` }, 422);
    await recordAudit(store.db, operator, "file_uploaded", { detail: { product: result.file.productId, locale: result.file.locale || "default", version: result.file.version, bytes: result.file.bytes, type: result.file.contentType } });
    return redirect("/admin/files?done=uploaded");
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * An operator reads a stored file as a buyer of a real order would get it: test orders only ever get
 * the generated test delivery, so this is where the real bytes are checked.
 */
async function readStoredFile(context: AdminContext): Promise<Response> {
  const file = await fileById(context.store.db, Number(param(context.params, "id", /^\d{1,15}$/)));
  if (!file) return notFound("There is no such file.");
  const headers = { "Content-Type": file.contentType, "Content-Length": String(file.bytes), "Content-Disposition": contentDisposition(file.fileName), "Cache-Control": "private, no-store" };
  if (context.request.method === "HEAD") return new Response(null, { headers });
  let stream;
  try {
    stream = await context.store.files.read(file.storageKey, { start: 0, end: file.bytes - 1 });
  } catch (error) {
    console.error(`File ${file.id} could not be read from the storage`, error instanceof Error ? error.message : error);
    return htmlPage(<MessageView title="File unavailable" text="The storage did not give this file. Upload it again." />, 503);
  }
  return new Response(pulled(stream), { headers });
}

export const filesRoutes: readonly AdminRoute[] = [
  { path: "files", nav: { label: "Files", permission: "view" }, upload: true, loader: (context) => showFiles(context, noticeFrom(context.url, notices)), action: upload },
  { path: "files/:id", loader: readStoredFile },
];
