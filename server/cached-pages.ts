import type { NextFunction, Request, RequestHandler, Response } from "express";
import { createRequestHandler as createFetchHandler, type ServerBuild } from "react-router";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { cachedRenderHeader, contentSecurityPolicy, inlineScriptHashes, inlineScripts, scriptHashSource, type ThirdPartyOrigins } from "./csp.js";
import { compressVariants, markPrecompressed, negotiateEncoding } from "./encoding.js";
import {
  cacheableQuery,
  cachedSearch,
  cacheableRouteNames,
  cacheGeneration,
  forVisitor,
  headerForVisitor,
  pageCacheKey,
  standInMarker,
  standInToken,
  type PageCache,
} from "./page-cache.js";
import { gzipForVisitor, gzipPieces, type GzipPieces } from "./visitor-gzip.js";
import { representation, sendRepresentation, type Representation } from "./representation.js";
import { isArmEntry, redirectToArm } from "./arm-entry.js";
import { headerOf } from "./request-header.js";

/** What the app's server build says about a path without a locale (see `app/funnel/geo-page.server.ts`). */
export interface GeoPage {
  /** The route name of the route table (`offer`, `take2`, ...). */
  route: string;
  /** The market country the visitor's geo header resolves to. */
  geo: string;
  /** The request headers that carry the country, in order of precedence. */
  geoHeaders: readonly string[];
}
export type GeoPageOf = (pathname: string, header: (name: string) => string | undefined) => GeoPage | undefined;
/** The same for a path with a locale, whose market no header changes (`geo` is its locale's). */
export type LocalePageOf = (pathname: string) => GeoPage | undefined;

/** Removes the headers that ask for a render without a nonce from every request received. */
export function stripInternalHeaders(req: Request, _res: Response, next: NextFunction): void {
  // Only the server itself may set them (Node keeps header names in lower case).
  delete req.headers["x-storefront-cached-render"];
  delete req.headers["x-react-router-prerender"];
  delete req.headers["x-react-router-prerender-data"];
  next();
}

/** The twins made when a page is stored: Brotli 5 and gzip 6 take about a millisecond for a page. */
const quickTwins = { brotliQuality: 5, gzipLevel: 6 };

/**
 * An arm page answered per visitor goes out gzipped from pieces compressed once, when the visitor
 * accepts gzip and the answer carries a token (`visitor-gzip.ts`). Otherwise it is encoded per
 * answer at the quickest levels that still pay:
 * for a 51 kB page, Brotli 2 gives 13.7 kB in about 0.4 ms where Brotli 4 gives 13.1 kB in 2 ms,
 * and gzip 1 gives 15.2 kB in 1 ms where gzip 6 gives 13.6 kB in 2.9 ms.
 */
const brotliPerAnswer = promisify(brotliCompress);
const gzipPerAnswer = promisify(gzip);
const perAnswerBrotliQuality = 2;
const perAnswerGzipLevel = 1;

/** Response headers a cached entry does not keep: the server sets its own or they are per answer. */
const perAnswerHeaders = new Set([
  "set-cookie",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "date",
  "etag",
  "vary",
  "content-security-policy",
]);

interface Rendered {
  status: number;
  headers: Headers;
  body: Buffer;
  /** The page as kept, when it may be: 200, no cookie set, not `no-store`. */
  cached?: Representation;
}

export interface KeptPageOptions {
  cache: PageCache<Representation>;
  geoPageOf: GeoPageOf;
  localePageOf?: LocalePageOf | undefined;
  rendersOwnOrder?: ((pathname: string, cookieHeader: string | undefined) => boolean) | undefined;
}

export interface KeptPage {
  page: GeoPage;
  /** The query the page is kept under (an `xp` token replaced by the stand-in) and the visitor's token. */
  search: string;
  token: string | null;
}

/**
 * Whether a request is answered from the page cache, and as which page. A path with a locale is
 * prerendered; it is kept here only as a split test's arm page answered at its test's entry
 * address (`armEntry`), which must carry the visitor's own token as no prerendered file can.
 */
export function keptPageLookup({ cache, geoPageOf, localePageOf, rendersOwnOrder }: KeptPageOptions) {
  return (url: string, header: (name: string) => string | undefined, cookieHeader: string | undefined, armEntry: boolean): KeptPage | undefined => {
    if (!cache.enabled) return undefined;
    const queryStart = url.indexOf("?");
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    const isData = path.endsWith(".data");
    const pagePath = !isData ? path : path === "/_root.data" ? "/" : path.slice(0, -".data".length);
    const { search, token } = cachedSearch(queryStart === -1 ? "" : url.slice(queryStart));
    if (!cacheableQuery(search, isData)) return undefined;
    let page: GeoPage | undefined;
    try {
      page = geoPageOf(pagePath, header) ?? (armEntry && !isData ? localePageOf?.(pagePath) : undefined);
    } catch {
      page = undefined;
    }
    if (!page || !cacheableRouteNames.has(page.route)) return undefined;
    if (rendersOwnOrder?.(path, cookieHeader)) return undefined;
    // An arm's page at its entry must carry the visitor's token, which only an `xp` with one gives.
    if (armEntry && !token) return undefined;
    return { page, search, token };
  };
}

export interface CachedPagesOptions extends KeptPageOptions {
  build: ServerBuild;
  /** The third-party origins the pages' policy allows, from the settings. */
  origins: ThirdPartyOrigins;
  /** React Router's mode (the server's `NODE_ENV`). */
  mode?: string | undefined;
  /** The clock, for the day that is part of every entry's generation. */
  now?: () => Date;
}

/**
 * Serves the pages of `cacheableRouteNames` (and their `.data`) from the page cache, rendering
 * each once per path, geo market and query (`X-Cache: hit` or `miss`). The render that fills the
 * cache gets the geo headers and nothing else from the request (no cookie can reach it), carries
 * no nonce, and is answered with a policy that allows its inline scripts by hash. Its Brotli and
 * gzip encodings are made when it is stored, quickly, and once more at the highest levels when
 * it is asked for again, never per answer. Concurrent misses of one key share one render.
 * Everything else, a buyer's own upsell among it, goes on to the per-request render.
 */
export function serveCachedPages({ build, cache, geoPageOf, localePageOf, rendersOwnOrder, origins, mode, now = () => new Date() }: CachedPagesOptions): RequestHandler {
  const handle = createFetchHandler(build, mode);
  const keptPage = keptPageLookup({ cache, geoPageOf, localePageOf, rendersOwnOrder });
  const staticPolicy = contentSecurityPolicy([], origins);
  const inFlight = new Map<string, Promise<Rendered>>();
  const improving = new WeakSet<Representation>();
  /** Per kept arm page: the hashes of its inline scripts without the stand-in, and the scripts with it. */
  const scriptsOf = new WeakMap<Representation, { fixed: string[]; withStandIn: string[] }>();
  /** Per kept arm page: its gzip pieces around the stand-in, or null when it cannot have them. */
  const piecesOf = new WeakMap<Representation, GzipPieces | null>();

  function gzipPiecesOf(kept: Representation): GzipPieces | null {
    let pieces = piecesOf.get(kept);
    if (pieces === undefined) {
      pieces = gzipPieces(kept.identity.body, standInMarker);
      piecesOf.set(kept, pieces);
    }
    return pieces;
  }

  async function encodeForVisitor(acceptEncoding: string | undefined, kept: Representation, token: string): Promise<{ encoding: "br" | "gzip" | "identity"; encoded: Buffer }> {
    const pieces = token === "" ? null : gzipPiecesOf(kept);
    if (pieces && negotiateEncoding(acceptEncoding, ["gzip"]) === "gzip") return { encoding: "gzip", encoded: gzipForVisitor(pieces, Buffer.from(`.${token}`)) };
    const body = forVisitor(kept.identity.body, token);
    const encoding = negotiateEncoding(acceptEncoding, ["br", "gzip"]);
    const encoded =
      encoding === "br"
        ? await brotliPerAnswer(body, { params: { [constants.BROTLI_PARAM_QUALITY]: perAnswerBrotliQuality, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : encoding === "gzip"
          ? await gzipPerAnswer(body, { level: perAnswerGzipLevel })
          : body;
    return { encoding, encoded };
  }

  async function render(req: Request, target: string, page: GeoPage, generation: string, key: string, pageKey: string, perVisitor: boolean): Promise<Rendered> {
    const headers = new Headers({ [cachedRenderHeader]: "1" });
    for (const name of page.geoHeaders) {
      const value = req.headers[name.toLowerCase()];
      if (typeof value === "string") headers.set(name, value);
    }
    const origin = `${req.protocol}://${req.headers.host ?? "localhost"}`;
    let url: URL;
    try {
      url = new URL(target, origin);
    } catch {
      url = new URL(target, "http://localhost");
    }
    const response = await handle(new globalThis.Request(url, { method: "GET", headers }));
    const body = Buffer.from(await response.arrayBuffer());
    const rendered: Rendered = { status: response.status, headers: response.headers, body };
    const storable =
      response.status === 200 &&
      !response.headers.has("set-cookie") &&
      !/no-store/i.test(response.headers.get("cache-control") ?? "") &&
      response.headers.has("content-type");
    if (!storable) return rendered;
    const kept: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (!perAnswerHeaders.has(name)) kept[name] = value;
    });
    kept["content-security-policy"] = policyFor(response.headers.get("content-type"), body);
    const vary = (response.headers.get("vary") ?? "")
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean);
    // Quick twins now (a miss costs about what a render per request did); the highest levels
    // once the page is asked for again. A page answered per visitor is compressed per answer.
    rendered.cached = perVisitor
      ? representation(body, {}, kept, { vary })
      : representation(body, await compressVariants(body, quickTwins), kept, { vary, final: false });
    cache.set(generation, key, pageKey, rendered.cached);
    return rendered;
  }

  /** Recompresses a page that is served again at the highest levels, in the threadpool, once. */
  function improve(generation: string, key: string, current: Representation): void {
    if (improving.has(current)) return;
    improving.add(current);
    compressVariants(current.identity.body)
      .then((twins) => cache.replace(generation, key, current, representation(current.identity.body, twins, { ...current.headers }, { vary: current.vary })))
      .catch((error: unknown) => console.error(error))
      .finally(() => improving.delete(current));
  }

  function policyFor(contentType: string | null | undefined, body: Buffer): string {
    const isDocument = contentType?.startsWith("text/html") ?? false;
    return isDocument ? contentSecurityPolicy(inlineScriptHashes(body.toString("utf8")), origins) : staticPolicy;
  }

  /** The policy of a kept page as one visitor gets it: only scripts with the stand-in are hashed anew. */
  function visitorPolicy(kept: Representation, token: string): string {
    if (!(kept.headers["content-type"]?.startsWith("text/html") ?? false)) return staticPolicy;
    let scripts = scriptsOf.get(kept);
    if (!scripts) {
      const all = inlineScripts(kept.identity.body.toString("utf8"));
      scripts = { fixed: all.filter((script) => !script.includes(standInToken)).map(scriptHashSource), withStandIn: all.filter((script) => script.includes(standInToken)) };
      scriptsOf.set(kept, scripts);
    }
    const own = scripts.withStandIn.map((script) => scriptHashSource(headerForVisitor(script, token)));
    return contentSecurityPolicy([...new Set([...scripts.fixed, ...own])], origins);
  }

  /**
   * A split test's arm page with the visitor's own exposure token in place of the stand-in
   * (docs/decisions/0036-cached-pages-carry-each-visitors-token.md). Its inline scripts carry the
   * token too, so the policy allows them by their hashes as answered; the body is encoded for this
   * answer alone, and a page of one visit gets no entity tag.
   */
  async function sendForVisitor(req: Request, res: Response, kept: Representation, token: string, cacheState: string): Promise<void> {
    const { encoding, encoded } = await encodeForVisitor(req.headers["accept-encoding"], kept, token);
    markPrecompressed(res);
    for (const [name, value] of Object.entries(kept.headers)) res.setHeader(name, value);
    // At a split test's entry address the answer is one visitor's arm: no shared cache may keep it,
    // and a fresh visit asks again. The browser's own copy serves Back (no-store would refetch,
    // and assign again, the page a visitor without scripts returns to).
    if (isArmEntry(res)) res.setHeader("Cache-Control", "private, no-cache");
    res.setHeader("Content-Security-Policy", visitorPolicy(kept, token));
    for (const field of kept.vary) res.vary(field);
    res.vary("Accept-Encoding");
    res.setHeader("X-Cache", cacheState);
    if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
    res.setHeader("Content-Length", encoded.length);
    res.status(200);
    res.end(req.method === "HEAD" ? undefined : encoded);
  }

  /** A render that may not be kept (a redirect, an error page, a cookie) is answered once, as it is. */
  function sendUncached(res: Response, rendered: Rendered, token: string | null): void {
    const own = (value: string) => (token === null ? value : headerForVisitor(value, token));
    const body = token === null ? rendered.body : forVisitor(rendered.body, token);
    res.status(rendered.status);
    rendered.headers.forEach((value, name) => {
      if (!perAnswerHeaders.has(name) || name === "vary") res.setHeader(name, own(value));
    });
    const cookies = rendered.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader("Set-Cookie", cookies);
    res.setHeader("Content-Security-Policy", policyFor(rendered.headers.get("content-type"), body));
    res.setHeader("X-Cache", "bypass");
    res.end(res.req.method === "HEAD" ? undefined : body);
  }

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const header = headerOf(req);
    // `url`, not `originalUrl`: an arm's page answered at its entry goes on as the arm's address.
    const kept = keptPage(req.url, header, req.headers.cookie, isArmEntry(res));
    if (!kept) return next();
    const { page, search, token } = kept;
    const path = req.path;
    const queryStart = req.url.indexOf("?");
    const generation = cacheGeneration(build.assets.version, now());
    const { key, page: pageKey } = pageCacheKey({ path, geo: page.geo, search });
    const hit = cache.get(generation, key);
    if (hit) {
      if (token !== null) return void sendForVisitor(req, res, hit, token, "hit").catch(next);
      sendRepresentation(req, res, hit, { "X-Cache": "hit" });
      if (!hit.final) improve(generation, key, hit);
      return;
    }
    const flightKey = `${generation}\n${key}`;
    const shared = inFlight.get(flightKey);
    const flight = shared ?? render(req, `${queryStart === -1 ? req.url : req.url.slice(0, queryStart)}${search}`, page, generation, key, pageKey, token !== null).finally(() => inFlight.delete(flightKey));
    if (!shared) inFlight.set(flightKey, flight);
    flight.then(
      (rendered) => {
        if (rendered.cached && token !== null) sendForVisitor(req, res, rendered.cached, token, "miss").catch(next);
        else if (rendered.cached) sendRepresentation(req, res, rendered.cached, { "X-Cache": "miss" });
        // An arm's page that could not be kept is not answered at the entry: the visitor goes there.
        else if (isArmEntry(res)) redirectToArm(res);
        // Requests that waited for another's render only share a page that may be kept.
        else if (shared) next();
        else sendUncached(res, rendered, token);
      },
      (error: unknown) => (isArmEntry(res) ? redirectToArm(res) : next(shared ? undefined : error)),
    );
  };
}
