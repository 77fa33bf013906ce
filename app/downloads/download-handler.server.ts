import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { downloadLinks } from "./schema";
import { orderLines, orders } from "../orders/schema";
import { marketForCountryCode, markets, type Market } from "../market/markets";
import { countHit, rateLimitKey } from "../db/rate-limits.server";
import { currentFile } from "./digital-files.server";
import { downloadRefusalPage, marketForAcceptLanguage, type DownloadRefusal } from "./download-page.server";
import { finishDownload, linesHeld, linkIdOf, linkState, startDownload } from "./links.server";
import type { FileStorage } from "./storage.server";
import { testDeliveryPdf } from "./test-delivery.server";

/**
 * `GET /download/<token>` (decision 27): the link is checked, then the file streamed from the
 * storage with `Range` support, never read whole into memory. Refusals are pages, never the file.
 */

export interface DownloadContext {
  db: Database;
  files: FileStorage;
  signingKey: string;
  reviewDelayDays: number;
}

/** A burst of requests for one link (a script, a shared link) is slowed down: per link and minute. */
export const burstLimit = { requests: 20, windowMs: 60_000 };

type ByteRange = { start: number; end: number };

/**
 * The one range of a `Range` header (RFC 9110 §14): null for none or one we serve whole (several
 * ranges, another unit), "unsatisfiable" for a range outside the file.
 */
export function parseRange(header: string | null, size: number): ByteRange | null | "unsatisfiable" {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return null;
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

interface Deliverable {
  fileId: number | null;
  size: number;
  fileName: string;
  contentType: string;
  etag: string;
  read(range: ByteRange): Promise<Readable>;
}

/**
 * What a link delivers. A test order always gets the generated test delivery, also once the store is
 * live: it names the stored file so the operator sees what a buyer would get, never gives its bytes
 * (the operator reads the real file in the back office). A real order gets the current file, once
 * the storage has confirmed that its bytes are there: a file missing costs the buyer no download.
 */
async function deliverable(context: DownloadContext, order: typeof orders.$inferSelect, line: typeof orderLines.$inferSelect): Promise<Deliverable | "unavailable"> {
  const file = await currentFile(context.db, line.productId, order.locale);
  if (order.test) {
    const bytes = await testDeliveryPdf({ productName: line.productName, orderNumber: order.number, createdAt: order.createdAt, stored: file ? { fileName: file.fileName, bytes: file.bytes } : null });
    return {
      fileId: null,
      size: bytes.length,
      fileName: `test-delivery-${line.productId}.pdf`,
      contentType: "application/pdf",
      etag: `"test-${line.id}-${file?.id ?? 0}"`,
      read: async ({ start, end }) => Readable.from([Buffer.from(bytes.subarray(start, end + 1))]),
    };
  }
  if (!file) return "unavailable";
  let stored: number | null;
  try {
    stored = await context.files.size(file.storageKey);
  } catch (error) {
    console.error(`The storage did not say whether file ${file.id} is there`, error instanceof Error ? error.message : error);
    return "unavailable";
  }
  if (stored !== file.bytes) {
    console.error(`File ${file.id} of ${line.productId} is ${stored === null ? "missing from" : `${stored} bytes instead of ${file.bytes} in`} the storage`);
    return "unavailable";
  }
  return {
    fileId: file.id,
    size: file.bytes,
    fileName: file.fileName,
    contentType: file.contentType,
    etag: `"${file.sha256.slice(0, 32)}"`,
    read: (range) => context.files.read(file.storageKey, range),
  };
}

/** A file stream once its file is open (a file stream opens lazily and reports a missing file as an event). */
async function opened(stream: Readable): Promise<Readable> {
  if (!("pending" in stream) || !stream.pending) return stream;
  await new Promise<void>((resolve, reject) => {
    const onReady = () => {
      stream.off("error", onError);
      resolve();
    };
    const onError = (error: Error) => {
      stream.off("ready", onReady);
      reject(error);
    };
    stream.once("ready", onReady);
    stream.once("error", onError);
  });
  return stream;
}

/**
 * The file as a web stream that reads a piece only when the client has taken the last one, so a
 * download holds a few hundred KB however large the file; `done` gets the bytes sent, also when
 * the client went away.
 */
export function pulled(stream: Readable, done: (sent: number) => void = () => undefined): ReadableStream<Uint8Array> {
  const pieces = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let sent = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done(sent);
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const piece = await pieces.next();
          if (piece.done) {
            controller.close();
            finish();
            return;
          }
          sent += piece.value.length;
          controller.enqueue(new Uint8Array(piece.value.buffer, piece.value.byteOffset, piece.value.length));
        } catch (error) {
          finish();
          controller.error(error);
        }
      },
      cancel() {
        stream.destroy();
        finish();
      },
    },
    { highWaterMark: 0 },
  );
}

export const contentDisposition = (fileName: string) => `attachment; filename="${fileName.replace(/[^\x20-\x7e]|"/g, "_")}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;

export async function handleDownload(request: Request, token: string, context: DownloadContext): Promise<Response> {
  const linkId = linkIdOf(context.signingKey, token);
  if (!linkId) return downloadRefusalPage("altered", marketForAcceptLanguage(request.headers.get("Accept-Language")), null);
  const [found] = await context.db
    .select({ link: downloadLinks, order: orders, line: orderLines })
    .from(downloadLinks)
    .innerJoin(orders, eq(orders.id, downloadLinks.orderId))
    .innerJoin(orderLines, eq(orderLines.id, downloadLinks.orderLineId))
    .where(eq(downloadLinks.id, linkId));
  const guessed = marketForAcceptLanguage(request.headers.get("Accept-Language"));
  if (!found) return downloadRefusalPage("revoked", guessed, null);
  const { order, line } = found;
  const market: Market = marketForCountryCode(order.market) ?? markets.find((candidate) => candidate.locale === order.locale) ?? guessed;
  const refuse = (refusal: DownloadRefusal, headers: Record<string, string> = {}) => downloadRefusalPage(refusal, market, order.erasedAt ? null : order.number, headers);

  const windowStart = new Date(Math.floor(Date.now() / burstLimit.windowMs) * burstLimit.windowMs);
  const hits = await countHit(context.db, rateLimitKey(context.signingKey, "download", linkId), windowStart, burstLimit.windowMs);
  if (hits > burstLimit.requests) return refuse("limited", { "Retry-After": String(Math.ceil((windowStart.getTime() + burstLimit.windowMs - Date.now()) / 1000)) });

  // A first look without counting: a refused link or a range outside the file costs no download.
  const lineHeld = (await linesHeld(context.db, order.id)).has(line.id);
  if (linkState(found.link, { lineHeld }) === "revoked" || order.erasedAt) return refuse("revoked");
  const file = await deliverable(context, order, line);
  if (file === "unavailable") return refuse("unavailable");
  const ifRange = request.headers.get("If-Range");
  const range = ifRange && ifRange !== file.etag ? null : parseRange(request.headers.get("Range"), file.size);
  if (range === "unsatisfiable") {
    return new Response(null, { status: 416, headers: { "Content-Range": `bytes */${file.size}`, "Cache-Control": "private, no-store" } });
  }
  const headers: Record<string, string> = {
    "Content-Type": file.contentType,
    "Content-Length": String(range ? range.end - range.start + 1 : file.size),
    "Content-Disposition": contentDisposition(file.fileName),
    "Accept-Ranges": "bytes",
    ETag: file.etag,
    "Cache-Control": "private, no-store",
  };
  if (range) headers["Content-Range"] = `bytes ${range.start}-${range.end}/${file.size}`;
  // A HEAD asks what the file is without taking it: not a download.
  if (request.method === "HEAD") return new Response(null, { status: range ? 206 : 200, headers });
  const { start, end } = range ?? { start: 0, end: file.size - 1 };
  // The file is opened before the download is counted: a storage that fails costs nothing.
  let stream: Readable;
  try {
    stream = await opened(await file.read({ start, end }));
  } catch (error) {
    console.error(`Link ${linkId}: the storage did not give the file`, error instanceof Error ? error.message : error);
    return refuse("unavailable");
  }
  let started: Awaited<ReturnType<typeof startDownload>>;
  try {
    started = await startDownload(context.db, linkId, { asked: { firstByte: start, lastByte: end, fileId: file.fileId }, reviewDelayDays: context.reviewDelayDays });
  } catch (error) {
    stream.destroy();
    throw error;
  }
  if (started.kind === "refused") {
    stream.destroy();
    return refuse(started.state === "unknown" ? "revoked" : started.state);
  }
  return new Response(pulled(stream, (sent) => finishDownload(context.db, started.downloadId, sent).catch((error: unknown) => console.error(`Download ${started.downloadId} was not updated`, error))), {
    status: range ? 206 : 200,
    headers,
  });
}
