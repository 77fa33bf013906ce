import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { NextFunction, Request, Response } from "express";

/**
 * The app's own handlers (the back office, the downloads) answer Fetch requests: an Express request
 * becomes one with its body still on the connection, and the answer's body is piped with
 * backpressure, so neither side holds a file in memory.
 */

export type FetchHandler = (request: globalThis.Request) => Promise<globalThis.Response>;

/**
 * A request body that reads nothing from the connection until the app asks for a piece, then one
 * piece per ask: the back office checks the session and the origin before the first byte, and an
 * upload streams to disk at the disk's pace.
 */
function bodyOnDemand(req: Request): { stream: ReadableStream<Uint8Array>; readToEnd(): boolean } {
  let iterator: AsyncIterator<Buffer> | undefined;
  let ended = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        iterator ??= (req as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
        const piece = await iterator.next();
        if (piece.done) {
          ended = true;
          controller.close();
          return;
        }
        controller.enqueue(new Uint8Array(piece.value.buffer, piece.value.byteOffset, piece.value.length));
      },
      cancel() {
        req.pause();
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, readToEnd: () => ended || req.complete };
}

/** The Fetch request the app's own handlers take, from an Express request. */
function fetchRequestOf(req: Request, body?: ReadableStream<Uint8Array>): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const url = new URL(req.originalUrl, `${req.protocol}://${req.headers.host ?? "localhost"}`);
  // `duplex: "half"` is what a streamed request body needs (the Fetch standard); Node's types lack it.
  const init = { method: req.method, headers, ...(body ? { body, duplex: "half" } : {}) } as RequestInit;
  return new globalThis.Request(url, init);
}

/** A Fetch response's status and headers on the Express response, each cookie its own header. */
function writeHead(res: Response, response: globalThis.Response): void {
  res.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
}

/** The answer's body, piped as fast as the client takes it. */
async function sendBody(req: Request, res: Response, response: globalThis.Response): Promise<void> {
  if (!response.body || req.method === "HEAD") {
    await response.body?.cancel();
    res.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream), res);
}

/**
 * The back office answers Fetch requests (it lives in the app's server build, with the store). Its
 * body stays on the connection until the app reads it: an answer given without reading it all (a
 * post without a session, from another origin, or refused halfway) closes the connection, so the
 * rest is never read.
 */
export function serveBackOffice(handle: FetchHandler) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      const body = req.method !== "GET" && req.method !== "HEAD" ? bodyOnDemand(req) : undefined;
      const response = await handle(fetchRequestOf(req, body?.stream));
      if (body && !body.readToEnd()) res.setHeader("Connection", "close");
      writeHead(res, response);
      await sendBody(req, res, response);
    } catch (error) {
      // A client that went away before its body was sent, or while its answer was sent, is no error of ours.
      if (res.headersSent || (req.destroyed && !req.complete)) return;
      next(error);
    }
  };
}

/**
 * Digital products' files (`/download/<token>`): the app checks the link and answers with the file's
 * stream, which is piped with backpressure, so a slow buyer holds a few chunks in memory, not the file.
 */
export function serveDownloads(handle: FetchHandler) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    try {
      const response = await handle(fetchRequestOf(req));
      writeHead(res, response);
      await sendBody(req, res, response);
    } catch (error) {
      // A buyer who stopped the download is no error of ours; the app records the bytes that went out.
      if (res.headersSent || (req.destroyed && !req.complete)) return;
      next(error);
    }
  };
}
