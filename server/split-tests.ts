import type { NextFunction, Request, Response } from "express";
import type { GeoPageOf } from "./cached-pages.js";

/** The app's split-test hook (`app/experiments/routing.server.ts`), as the server calls it. */
export type RouteExperiment = (request: {
  method: string;
  pathname: string;
  search: string;
  header(name: string): string | undefined;
  geoMarket(): string;
  secure: boolean;
}) => Promise<{ location: string; cookies: string[] } | null>;

/**
 * Page requests pass the split tests before any page is looked for (decision 28): an entry path
 * under test is answered with a redirect to its arm that no cache keeps; everything else goes on
 * to the prerendered files, the page cache and the renderer, which keep one page per arm's path.
 */
export function splitTests(route: RouteExperiment, geoPageOf: GeoPageOf | undefined, publicUrlIsHttps: boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Documents only: data requests and files never start a visit.
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path.includes(".")) return next();
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    };
    const queryStart = req.originalUrl.indexOf("?");
    route({
      method: req.method,
      pathname: req.path,
      search: queryStart === -1 ? "" : req.originalUrl.slice(queryStart),
      header,
      geoMarket: () => geoPageOf?.(req.path, header)?.geo ?? "",
      secure: req.secure || publicUrlIsHttps,
    }).then(
      (redirect) => {
        if (!redirect) return next();
        res.status(302).set({ Location: redirect.location, "Cache-Control": "no-store" });
        if (redirect.cookies.length > 0) res.setHeader("Set-Cookie", redirect.cookies);
        res.end();
      },
      (error: unknown) => {
        // A test that cannot be looked up (the database away) must not take the page down with it.
        console.error(error);
        next();
      },
    );
  };
}
