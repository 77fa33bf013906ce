import type { Request, Response } from "express";
import {
  compressedEncodings,
  contentHash,
  entityTag,
  ifNoneMatchHits,
  markPrecompressed,
  negotiateEncoding,
  type CompressedEncoding,
  type Encoding,
} from "./encoding.js";

export interface Variant {
  body: Buffer;
  etag: string;
}

/**
 * One resource kept in memory with its encodings: the body as is and, when they are smaller, its
 * Brotli and gzip twins, each with its own entity tag. `headers` go with every encoding.
 */
export interface Representation {
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
  /** The twins present, in the server's order of preference. */
  encodings: readonly CompressedEncoding[];
  headers: Readonly<Record<string, string>>;
  /** Request headers the answer depends on besides `Accept-Encoding` (the geo headers). */
  vary: readonly string[];
  /** Bytes held: every variant's body. */
  bytes: number;
  /**
   * Whether the twins are made at the highest levels (Brotli 11, gzip 9). Quicker twins carry
   * weak tags (`W/"<hash>-br"`): the same content, not the same bytes as the final ones.
   */
  final: boolean;
}

export function representation(
  body: Buffer,
  twins: Partial<Record<CompressedEncoding, Buffer>>,
  headers: Record<string, string>,
  { vary = [], final = true }: { vary?: readonly string[]; final?: boolean } = {},
): Representation {
  const hash = contentHash(body);
  const result: Representation = {
    identity: { body, etag: entityTag(hash, "identity") },
    encodings: compressedEncodings.filter((encoding) => twins[encoding] !== undefined),
    headers,
    vary,
    bytes: body.length,
    final,
  };
  for (const encoding of result.encodings) {
    const twin = twins[encoding] as Buffer;
    result[encoding] = { body: twin, etag: `${final ? "" : "W/"}${entityTag(hash, encoding)}` };
    result.bytes += twin.length;
  }
  return result;
}

/**
 * Answers GET or HEAD with the encoding `Accept-Encoding` prefers: `Content-Encoding`,
 * `Content-Length`, `Vary` and the encoding's own ETag, or 304 when `If-None-Match` names it.
 * The answer is marked so that the `compression` middleware leaves it as it is.
 */
export function sendRepresentation(req: Request, res: Response, file: Representation, extraHeaders: Record<string, string> = {}): void {
  const encoding: Encoding = file.encodings.length > 0 ? negotiateEncoding(req.headers["accept-encoding"], file.encodings) : "identity";
  const variant = (encoding === "identity" ? file.identity : file[encoding]) as Variant;
  markPrecompressed(res);
  for (const [name, value] of Object.entries(file.headers)) res.setHeader(name, value);
  for (const [name, value] of Object.entries(extraHeaders)) res.setHeader(name, value);
  for (const field of file.vary) res.vary(field);
  if (file.encodings.length > 0) res.vary("Accept-Encoding");
  res.setHeader("ETag", variant.etag);
  if (ifNoneMatchHits(req.headers["if-none-match"], variant.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", variant.body.length);
  res.statusCode = 200;
  if (req.method === "HEAD") res.end();
  else res.end(variant.body);
}
