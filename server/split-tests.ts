import type { NextFunction, Request, Response } from "express";
import { markArmEntry } from "./arm-entry.js";
import { headerOf } from "./request-header.js";
import type { GeoPageOf } from "./cached-pages.js";

/** The app's split-test hook (`app/experiments/routing.server.ts`), as the server calls it. */
export type RouteExperiment = (request: {
  method: string;
  pathname: string;
  search: string;
  header(name: string): string | undefined;
  geoMarket(): string;
  secure: boolean;
}) => Promise<{ location: string; cookies: string[]; armLocations: string[] } | null>;

/** Whether the server answers an arm's page from a page it keeps, so it can answer it at any address. */
export type ServesInPlace = (location: string, header: (name: string) => string | undefined, cookieHeader: string | undefined) => boolean;

/**
 * Page requests pass the split tests before any page is looked for (decision 28). An entry path
 * under test is answered with its arm's page at the address requested, when the server keeps that
 * page: the request goes on as the arm's address (`Content-Location` names it, and the page itself
 * tells the browser), so a visitor saves the round trip of a redirect. Otherwise, and for a
 * redirect without an arm (a shipped test's, a crawler's), it is answered with a redirect that no
 * cache keeps. Everything else goes on to the prerendered files, the page cache and the renderer.
 */
export function splitTests(route: RouteExperiment, geoPageOf: GeoPageOf | undefined, publicUrlIsHttps: boolean, servesInPlace: ServesInPlace = () => false) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Documents only: data requests and files never start a visit.
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path.includes(".")) return next();
    // The geo headers are asked for as their providers write them.
    const header = headerOf(req);
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
        if (redirect.cookies.length > 0) res.setHeader("Set-Cookie", redirect.cookies);
        // In place only when every arm could be: whether a visitor waits for a redirect never depends on the arm.
        const inPlace = redirect.armLocations.length > 0 && redirect.armLocations.every((location) => servesInPlace(location, header, req.headers.cookie));
        if (inPlace) {
          markArmEntry(res, redirect.location);
          // Only `url`: the request log and the rate limits keep the address that was asked for.
          req.url = redirect.location;
          return next();
        }
        res.status(302).set({ Location: redirect.location, "Cache-Control": "no-store" });
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
