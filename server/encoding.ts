import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Request, Response } from "express";

/** The content codings the server sends, in its order of preference. */
export type Encoding = "br" | "gzip" | "identity";
export const compressedEncodings = ["br", "gzip"] as const;
export type CompressedEncoding = (typeof compressedEncodings)[number];

/** The quality of the files written at build time and of cached pages: the smallest output. */
const brotliMaxQuality = 11;
const gzipMaxLevel = 9;

const codingPattern = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;
const qPattern = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** `Accept-Encoding` as coding → weight, lower-cased; entries that do not parse are ignored. */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [rawCoding = "", ...params] = part.split(";");
    const coding = rawCoding.trim().toLowerCase();
    if (!codingPattern.test(coding)) continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const [name = "", value = ""] = param.split("=", 2).map((piece) => piece.trim());
      if (name.toLowerCase() !== "q") continue;
      if (!qPattern.test(value)) valid = false;
      else q = Number(value);
    }
    if (!valid) continue;
    const key = coding === "x-gzip" ? "gzip" : coding;
    // A coding named twice keeps its highest weight.
    weights.set(key, Math.max(q, weights.get(key) ?? 0));
  }
  return weights;
}

/**
 * The coding to answer with among those available (identity always is): the highest weight
 * wins, Brotli before gzip before identity on a tie. `*` stands for every coding not named;
 * identity is acceptable unless `identity;q=0` (or `*;q=0` without naming it) refuses it. With
 * no header, or when nothing offered is acceptable, the answer is identity: a client that
 * refuses everything still gets a readable answer rather than a 406.
 */
export function negotiateEncoding(header: string | undefined, available: readonly CompressedEncoding[]): Encoding {
  if (header === undefined) return "identity";
  const weights = parseAcceptEncoding(header);
  const star = weights.get("*");
  // Unnamed identity ranks with the least wanted coding named (as `negotiator` does): acceptable,
  // yet never preferred to a coding the client asked for.
  const positive = [...weights.values()].filter((weight) => weight > 0);
  const implicitIdentity = positive.length > 0 ? Math.min(...positive) : 1;
  const weightOf = (coding: Encoding): number => weights.get(coding) ?? star ?? (coding === "identity" ? implicitIdentity : 0);
  let best: Encoding = "identity";
  let bestWeight = weightOf("identity");
  for (const coding of compressedEncodings) {
    if (!available.includes(coding)) continue;
    const weight = weightOf(coding);
    if (weight > 0 && weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    } else if (weight > 0 && weight === bestWeight && best === "identity") {
      best = coding;
    }
  }
  return best;
}

/** The opaque part of an entity tag, without `W/`: what the weak comparison compares. */
function opaqueTag(tag: string): string {
  return tag.startsWith("W/") ? tag.slice(2) : tag;
}

/**
 * Whether `If-None-Match` names the representation's tag (weak comparison, RFC 9110 §13.1.2):
 * `*`, or a list of tags, weak or strong.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const wanted = opaqueTag(etag);
  for (const match of header.matchAll(/(?:W\/)?"[^"]*"/g)) {
    if (opaqueTag(match[0]) === wanted) return true;
  }
  return false;
}

/** The strong tag of one encoding of a body: `"<hash>"`, `"<hash>-br"`, `"<hash>-gz"`. */
export function entityTag(identityHash: string, encoding: Encoding): string {
  return encoding === "identity" ? `"${identityHash}"` : `"${identityHash}-${encoding === "br" ? "br" : "gz"}"`;
}

export function contentHash(body: Buffer): string {
  return createHash("sha1").update(body).digest("base64url");
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Brotli and gzip of a body, in the libuv threadpool (never on the event loop), each kept only
 * when it is smaller than the body.
 */
export async function compressVariants(
  body: Buffer,
  options: { brotliQuality?: number; gzipLevel?: number } = {},
): Promise<Partial<Record<CompressedEncoding, Buffer>>> {
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? brotliMaxQuality,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipAsync(body, { level: options.gzipLevel ?? gzipMaxLevel }),
  ]);
  return { ...(br.length < body.length ? { br } : {}), ...(gz.length < body.length ? { gzip: gz } : {}) };
}

const precompressed = new WeakSet<Response>();

/** Marks a response whose body is already encoded (or deliberately not), so nothing compresses it again. */
export function markPrecompressed(res: Response): void {
  precompressed.add(res);
}

/**
 * Options of the `compression` middleware, which handles what is rendered per request: Brotli at
 * quality 4 or gzip at level 6, streamed through zlib in the threadpool, never for a response
 * the server sent from its precompressed files or its page cache.
 */
export function onTheFlyCompression(defaultFilter: (req: Request, res: Response) => boolean) {
  return {
    filter: (req: Request, res: Response) => !precompressed.has(res) && defaultFilter(req, res),
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    level: 6,
  };
}
