import { createHash } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { markArmEntry } from "./arm-entry";
import { keptPageLookup, serveCachedPages, stripInternalHeaders, type LocalePageOf } from "./cached-pages";
import { cachedRenderHeader, noThirdPartyOrigins } from "./csp";
import { onTheFlyCompression } from "./encoding";
import { PageCache } from "./page-cache";
import type { Representation } from "./representation";

describe("stripInternalHeaders", () => {
  it("removes every header that asks for a render without a nonce, and nothing else", () => {
    const headers: Record<string, string> = {
      [cachedRenderHeader.toLowerCase()]: "1",
      "x-react-router-prerender": "1",
      "x-react-router-prerender-data": "x",
      "cf-ipcountry": "FR",
    };
    const next = vi.fn() as unknown as NextFunction;
    stripInternalHeaders({ headers } as unknown as Request, {} as Response, next);
    expect(headers).toEqual({ "cf-ipcountry": "FR" });
    expect(next).toHaveBeenCalledOnce();
  });
});

/**
 * A server build of one geo page standing in for the app's: its links and its hydration data
 * repeat the query its loader saw, as the funnel's pages do (`useCarriedSearch`).
 */
function buildOfOnePage(): ServerBuild {
  const loader = ({ request }: { request: globalThis.Request }) => ({ renderedSearch: new URL(request.url).search });
  const route = (id: string, path: string, parentId?: string) => ({ id, path, parentId, index: undefined, caseSensitive: undefined, module: { default: () => null, loader } });
  const manifestRoute = (id: string, path: string, parentId?: string) => ({ id, path, parentId, module: `/${id}.js`, hasLoader: true, hasAction: false, hasClientAction: false, hasClientLoader: false, hasClientMiddleware: false, hasErrorBoundary: false });
  const build = {
    entry: {
      module: {
        default: (_request: globalThis.Request, status: number, headers: Headers, context: { staticHandlerContext: { loaderData: Record<string, { renderedSearch: string }> } }) => {
          const { loaderData } = context.staticHandlerContext;
          const search = loaderData.root?.renderedSearch ?? "";
          const html = `<!DOCTYPE html><html><body><a href="/checkout/fr${search.replace(/&/g, "&amp;")}">Order</a><a href="/take2${search.replace(/&/g, "&amp;")}">Quiz</a><script>window.__data=${JSON.stringify(loaderData)}</script></body></html>`;
          headers.set("Content-Type", "text/html; charset=utf-8");
          headers.set("Cache-Control", "private, no-cache");
          return new Response(html, { status, headers });
        },
      },
    },
    routes: { root: route("root", ""), offer2: route("offer2", "offer2", "root"), "offer2-2": route("offer2-2", "offer2/:locale", "root") },
    assets: {
      entry: { module: "/entry.js", imports: [] },
      routes: { root: manifestRoute("root", ""), offer2: manifestRoute("offer2", "offer2", "root"), "offer2-2": manifestRoute("offer2-2", "offer2/:locale", "root") },
      url: "/manifest.js",
      version: "test",
    },
    basename: "/",
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  };
  return build as unknown as ServerBuild;
}

describe("serveCachedPages", () => {
  let server: Server;
  let base = "";
  const cache = new PageCache<Representation>(8 * 1024 * 1024);

  beforeAll(async () => {
    const app = express();
    app.use(compression(onTheFlyCompression(compression.filter)));
    app.use(serveCachedPages({ build: buildOfOnePage(), cache, origins: noThirdPartyOrigins, geoPageOf: (pathname) => (pathname === "/offer2" ? { route: "offer2", geo: "FR", geoHeaders: ["cf-ipcountry"] } : undefined) }));
    app.use((_req, res) => res.status(404).end());
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("gives each visitor of a split test's arm a page whose every link carries their own exposure token, from one entry per arm", async () => {
    const first = "AZm3xQ2b8fGh1-_kLmNoPqRs0123456789ab";
    const second = "BQx7_yT0pLmN2aBcDeFgHiJkLmNoPqRsTu-9";
    const visit = (query: string, encoding: string) => fetch(`${base}/offer2${query}`, { headers: { "cf-ipcountry": "FR", "accept-encoding": encoding } });
    const pages: { token: string | null; html: string; cache: string | null }[] = [];
    for (const [token, encoding] of [
      [first, "br"],
      [second, "gzip"],
      [first, "identity"],
      [null, "br"],
    ] as const) {
      const query = `?src=ad&xp=k3j9x2ab.1${token ? `.${token}` : ""}&utm_source=mail`;
      const response = await visit(query, encoding);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-encoding")).toBe(encoding === "identity" ? null : encoding);
      const html = await response.text();
      pages.push({ token, html, cache: response.headers.get("x-cache") });
      // The inline script carries the token too: the policy allows it as served, by its own hash.
      const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? "";
      expect(response.headers.get("content-security-policy")).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`);
    }
    expect(pages.map((page) => page.cache)).toEqual(["miss", "hit", "hit", "hit"]);
    for (const { token, html } of pages) {
      const carried = `?src=ad&xp=k3j9x2ab.1${token ? `.${token}` : ""}&utm_source=mail`;
      const links = [...html.matchAll(/href="([^"]*)"/g)].map((match) => (match[1] ?? "").replace(/&amp;/g, "&"));
      expect(links).toEqual([`/checkout/fr${carried}`, `/take2${carried}`]);
      // Hydration reads the same query the links were rendered with.
      expect(html).toContain(JSON.stringify({ renderedSearch: carried }));
      for (const other of [first, second]) if (other !== token) expect(html).not.toContain(other);
    }
  });
});

describe("an arm's page answered at its test's entry address", () => {
  let server: Server;
  let base = "";
  const cache = new PageCache<Representation>(8 * 1024 * 1024);
  const token = "AZm3xQ2b8fGh1-_kLmNoPqRs0123456789ab";
  const geoPageOf = () => undefined;
  const localePageOf: LocalePageOf = (pathname) => (pathname === "/offer2/fr" || pathname === "/nowhere/fr" ? { route: pathname === "/nowhere/fr" ? "offer" : "offer2", geo: "FR", geoHeaders: [] } : undefined);
  /** Where the split-test step sends each entry here, as `split-tests.ts` does. */
  const arms: Record<string, string> = { "/offer/fr": `/offer2/fr?src=ad&xp=k3j9x2ab.1.${token}`, "/broken/fr": `/nowhere/fr?xp=k3j9x2ab.1.${token}` };

  beforeAll(async () => {
    const app = express();
    app.use((req: Request, res: Response, next: NextFunction) => {
      const arm = arms[req.path];
      if (arm) {
        markArmEntry(res, arm);
        req.url = arm;
      }
      next();
    });
    app.use(serveCachedPages({ build: buildOfOnePage(), cache, origins: noThirdPartyOrigins, geoPageOf, localePageOf }));
    app.use((req, res) => res.status(404).send(`not kept: ${req.url}`));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("is the arm's page with the visitor's token, kept by no cache, while the locale page itself stays the prerendered file's", async () => {
    const response = await fetch(`${base}/offer/fr?src=ad`, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    // No shared cache keeps it; the browser's own copy serves Back without assigning again.
    expect(response.headers.get("cache-control")).toBe("private, no-cache");
    expect(response.headers.get("etag")).toBeNull();
    expect(response.headers.get("content-location")).toBe(arms["/offer/fr"]);
    expect(await response.text()).toContain(`href="/checkout/fr?src=ad&amp;xp=k3j9x2ab.1.${token}"`);
    // Asked for at its own address, a page with a locale is not the page cache's to answer.
    const own = await fetch(`${base}/offer2/fr?src=ad&xp=k3j9x2ab.1.${token}`);
    expect([own.status, await own.text()]).toEqual([404, `not kept: /offer2/fr?src=ad&xp=k3j9x2ab.1.${token}`]);
  });

  it("goes by the redirect when the arm's page cannot be kept", async () => {
    // The render of a page that does not exist reports its 404.
    const quiet = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = await fetch(`${base}/broken/fr`, { redirect: "manual" }).finally(() => quiet.mockRestore());
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(arms["/broken/fr"]);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-location")).toBeNull();
  });

  it.each([
    [`/offer2/fr?src=ad&xp=k3j9x2ab.1.${token}`, true, true],
    ["/offer2/fr?src=ad&xp=k3j9x2ab.1", true, false],
    [`/offer2/fr?src=ad&xp=k3j9x2ab.1.${token}`, false, false],
    [`/offer2/fr?src=ad&gclid=abc&xp=k3j9x2ab.1.${token}`, true, false],
    ["/offer2/fr.data", true, false],
    ["/elsewhere/fr", true, false],
  ])("keptPageLookup(%s, armEntry %s) finds a page: %s", (url, armEntry, found) => {
    const lookup = keptPageLookup({ cache, geoPageOf, localePageOf });
    expect(lookup(url, () => undefined, undefined, armEntry) !== undefined).toBe(found);
  });
});
