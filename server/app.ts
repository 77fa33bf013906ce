import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ServerBuild } from "react-router";
import { contentSecurityPolicy, noThirdPartyOrigins, type ThirdPartyOrigins } from "./csp.js";
import { installFrontDoor, type FrontDoorHooks, type ServerRuntime } from "./front-door.js";
import { keptPageLookup, serveCachedPages, stripInternalHeaders, type GeoPageOf, type LocalePageOf } from "./cached-pages.js";
import { passClientAddress } from "./client-address.js";
import { onTheFlyCompression } from "./encoding.js";
import { PageCache } from "./page-cache.js";
import { indexClientFiles } from "./prerendered.js";
import { sendRepresentation, type Representation } from "./representation.js";
import { rejectMalformedUrls, rejectUnsupportedMethods } from "./request-guard.js";
import { serveBackOffice, serveDownloads } from "./app-bridge.js";
import { isArmEntry, redirectToArm } from "./arm-entry.js";
import { splitTests, type RouteExperiment, type ServesInPlace } from "./split-tests.js";

function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
  res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
  next();
}

/** What the storefront's server build offers the HTTP server besides the request handler. */
interface EntryModule extends FrontDoorHooks {
  checkStartupSettings?: () => void;
  /** The third-party origins every page's policy allows, from the settings the app read. */
  thirdPartyOrigins?: () => ThirdPartyOrigins;
  startStore?: () => Promise<unknown>;
  stopStore?: () => Promise<void>;
  rendersOwnOrder?: (pathname: string, cookieHeader: string | undefined) => boolean;
  geoPageOf?: GeoPageOf;
  localePageOf?: LocalePageOf;
  handleAdminRequest?: (request: globalThis.Request) => Promise<globalThis.Response>;
  handleDownloadRequest?: (request: globalThis.Request) => Promise<globalThis.Response>;
  routeExperiment?: RouteExperiment;
}

/** Files of the client build from memory, in the encoding the client prefers (built at build time). */
function serveFiles(files: Map<string, Representation>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const file = (req.method === "GET" || req.method === "HEAD") && files.get(req.path);
    if (!file) return next();
    sendRepresentation(req, res, file);
  };
}

function servePrerendered(files: Map<string, Representation>, rendersOwnOrder: EntryModule["rendersOwnOrder"], render: express.RequestHandler) {
  const serve = serveFiles(files);
  return (req: Request, res: Response, next: NextFunction): void => {
    // An arm's page at its test's entry carries the visitor's token, which the file cannot: the page cache answers it.
    if (isArmEntry(res)) return next();
    // A buyer's own upsell and thank-you pages (and their data) are rendered, never the static file.
    if (files.has(req.path) && rendersOwnOrder?.(req.path, req.headers.cookie)) {
      void render(req, res, next);
      return;
    }
    serve(req, res, next);
  };
}

export interface Storefront {
  app: express.Express;
  /** Stops the outbox worker and closes the database, once the server takes no more requests. */
  close(): Promise<void>;
}

/** The storefront's HTTP application over a production build (`build/client`, `build/server`). */
export async function createApp(buildDir: string, runtime: ServerRuntime): Promise<Storefront> {
  const clientDir = join(buildDir, "client");
  const { pageCacheBytes, mode } = runtime.settings;
  const build = (await import(pathToFileURL(join(buildDir, "server", "index.js")).href)) as ServerBuild;
  const entry = build.entry.module as EntryModule;
  // The app checks its own settings (IMAGE_PROVIDER, GTM_ID, ...) before anything is served, then
  // opens the database (applying migrations) and starts the e-mail outbox.
  entry.checkStartupSettings?.();
  await entry.startStore?.();
  const origins = entry.thirdPartyOrigins?.() ?? noThirdPartyOrigins;
  const staticPolicy = contentSecurityPolicy([], origins);
  const clientFiles = await indexClientFiles(clientDir, origins);
  const pageCache = new PageCache<Representation>(pageCacheBytes);

  const app = express();
  app.disable("x-powered-by");
  // The request log, TRUST_PROXY, HSTS, body and rate limits, and the draining state come first.
  const frontDoor = installFrontDoor(app, build.routes, entry, runtime);
  app.use(rejectUnsupportedMethods);
  app.use(rejectMalformedUrls);
  app.use(securityHeaders);
  app.use(compression(onTheFlyCompression(compression.filter)));

  app.get("/healthz", frontDoor.health);
  app.get("/favicon.ico", (_req, res) => {
    res.redirect(301, "/favicon.svg");
  });
  // Only the server sets the headers that render a page without a nonce.
  app.use(stripInternalHeaders);
  // The checkout keeps the buyer's address for the ad platforms only with their consent.
  app.use(passClientAddress);
  app.use(serveFiles(clientFiles.files));
  // A missing hashed asset (an old build's, usually) is a quiet 404, never an HTML page in its place.
  app.use("/assets", (_req, res) => {
    res.status(404).type("text/plain").send("Not found");
  });
  // The latest-build file must be fresh within a second; a build's meta file never changes.
  app.use("/builds", (req, res, next) => {
    res.setHeader("Cache-Control", req.path === "/latest.json" ? "public, max-age=1" : "public, max-age=31536000, immutable");
    next();
  });
  if (entry.handleAdminRequest) app.use("/admin", serveBackOffice(entry.handleAdminRequest));
  if (entry.handleDownloadRequest) app.use("/download/", serveDownloads(entry.handleDownloadRequest));
  const render = createRequestHandler({ build });
  // A split test's entry goes to its arm before any page (prerendered or cached) is looked for:
  // answered in place from the page cache, or by a redirect (decision 28).
  const keptPage = entry.geoPageOf ? keptPageLookup({ cache: pageCache, geoPageOf: entry.geoPageOf, localePageOf: entry.localePageOf, rendersOwnOrder: entry.rendersOwnOrder }) : undefined;
  const servesInPlace: ServesInPlace = (location, header, cookieHeader) => keptPage?.(location, header, cookieHeader, true) !== undefined;
  if (entry.routeExperiment) app.use(splitTests(entry.routeExperiment, entry.geoPageOf, runtime.settings.publicUrlIsHttps, servesInPlace));
  app.use(servePrerendered(clientFiles.pages, entry.rendersOwnOrder, render));
  const clientStatic = express.static(clientDir, {
    index: false,
    redirect: false,
    cacheControl: false,
    setHeaders: (res) => {
      res.setHeader("Content-Security-Policy", staticPolicy);
      if (!res.hasHeader("Cache-Control")) res.setHeader("Cache-Control", "public, max-age=3600");
    },
  });
  // Pages without a locale, and an arm's page at its test's entry, from the page cache (before the
  // disk, which has nothing at their paths).
  if (entry.geoPageOf) app.use(serveCachedPages({ build, cache: pageCache, geoPageOf: entry.geoPageOf, localePageOf: entry.localePageOf, rendersOwnOrder: entry.rendersOwnOrder, origins, mode }));
  // The build's `.br` and `.gz` twins are answers' encodings, not files of their own.
  app.use((req, res, next) => (/\.(?:br|gz)$/.test(req.path) ? next() : clientStatic(req, res, next)));
  // Never reached by an arm's page at its entry, which only the page cache answers; if it ever were,
  // the renderer would show the entry's own page where the arm's was counted.
  app.use((req, res, next) => (isArmEntry(res) ? redirectToArm(res) : render(req, res, next)));
  return { app, close: async () => entry.stopStore?.() };
}
