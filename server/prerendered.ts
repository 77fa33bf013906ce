import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join, relative, sep } from "node:path";
import { contentSecurityPolicy, inlineScriptHashes, type ThirdPartyOrigins } from "./csp.js";
import type { CompressedEncoding } from "./encoding.js";
import { representation, type Representation } from "./representation.js";

/** The file name suffix of each twin written by `scripts/precompress.mjs`. */
const twinSuffixes: Readonly<Record<CompressedEncoding, string>> = { br: ".br", gzip: ".gz" };

const contentTypes: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".svg": "image/svg+xml",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
};

export interface ClientFiles {
  /**
   * Prerendered documents (`offer/fr/index.html` → `/offer/fr`) and their data payloads
   * (`offer/fr.data` → `/offer/fr.data`), served at their own URL: no trailing-slash redirect.
   */
  pages: Map<string, Representation>;
  /** Hashed assets (`/assets/…`) and the other files of the client build (`/favicon.svg`). */
  files: Map<string, Representation>;
  /** Bytes held in memory: bodies as built, and their twins. */
  bytes: { identity: number; twins: number };
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/** A twin counts only when it was written after its file (never a previous build's) and is smaller. */
async function readTwins(path: string, body: Buffer, modified: number): Promise<Partial<Record<CompressedEncoding, Buffer>>> {
  const twins: Partial<Record<CompressedEncoding, Buffer>> = {};
  for (const [encoding, suffix] of Object.entries(twinSuffixes) as [CompressedEncoding, string][]) {
    const twinStat = await stat(path + suffix).catch(() => undefined);
    if (!twinStat?.isFile() || twinStat.mtimeMs < modified || twinStat.size >= body.length) continue;
    twins[encoding] = await readFile(path + suffix);
  }
  return twins;
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: size }, worker));
}

/**
 * Reads the client build into memory with the Brotli and gzip twins the build wrote, so every
 * file is answered without disk access and without compressing per request. `builds/` stays
 * on disk (its latest-build file is read fresh), as do the twin files themselves.
 */
export async function indexClientFiles(clientDir: string, origins: ThirdPartyOrigins): Promise<ClientFiles> {
  const staticPolicy = contentSecurityPolicy([], origins);
  const result: ClientFiles = { pages: new Map(), files: new Map(), bytes: { identity: 0, twins: 0 } };
  const paths: string[] = [];
  for await (const path of walk(clientDir)) paths.push(path);
  const present = new Set(paths);
  const isTwin = (path: string) => Object.values(twinSuffixes).some((suffix) => path.endsWith(suffix) && present.has(path.slice(0, -suffix.length)));

  await inBatches(paths, 16, async (path) => {
    const urlPath = `/${relative(clientDir, path).split(sep).join("/")}`;
    if (urlPath.startsWith("/builds/") || isTwin(path)) return;
    const isDocument = urlPath.endsWith("/index.html") && !urlPath.startsWith("/assets/");
    const isData = urlPath.endsWith(".data") && !urlPath.startsWith("/assets/");
    const isAsset = urlPath.startsWith("/assets/");
    if (!isDocument && !isData && !isAsset && !(extname(urlPath).toLowerCase() in contentTypes)) return;
    const [body, fileStat] = await Promise.all([readFile(path), stat(path)]);
    const twins = await readTwins(path, body, fileStat.mtimeMs);
    let file: Representation;
    if (isDocument) {
      file = representation(body, twins, {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "public, max-age=0, must-revalidate",
        // Prerendered documents cannot carry a nonce: their inline scripts are allowed by hash.
        "Content-Security-Policy": contentSecurityPolicy(inlineScriptHashes(body.toString("utf8")), origins),
      });
      result.pages.set(urlPath.slice(0, -"/index.html".length) || "/", file);
    } else if (isData) {
      file = representation(body, twins, {
        "Content-Type": "text/x-script",
        "Cache-Control": "public, max-age=0, must-revalidate",
        "Content-Security-Policy": staticPolicy,
      });
      result.pages.set(urlPath, file);
    } else {
      file = representation(body, twins, {
        "Content-Type": contentTypes[extname(urlPath).toLowerCase()] ?? "application/octet-stream",
        "Cache-Control": isAsset ? "public, max-age=31536000, immutable" : "public, max-age=3600",
        "Content-Security-Policy": staticPolicy,
      });
      result.files.set(urlPath, file);
    }
    result.bytes.identity += body.length;
    result.bytes.twins += file.bytes - body.length;
  });
  return result;
}
