import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import { checkHostAndTarget } from "./host-header.js";
import { limitBodies, policies, policyFor, timeBodies, type RoutePolicy } from "./limits.js";
import { clientKey, sendStrictTransportSecurity } from "./proxy-trust.js";
import { MemoryHitStore, rateLimit, sharedHitStore, type SharedHitCounter } from "./rate-limit.js";
import { createLogger, logRequests, type Logger } from "./request-log.js";
import { createRouteMatcher, pagePathOf, routeForLog, type ManifestRoute, type MatchedRoute } from "./route-patterns.js";
import type { ServerSettings } from "./settings.js";
import { closeConnectionsWhileDraining, healthCheck, Lifecycle } from "./shutdown.js";

/**
 * What every request passes first, before any page or file is looked for: the request log and its
 * id, the proxies' word on the client (TRUST_PROXY), HSTS, the body limit and the rate limit of its
 * route, and the draining state of a shutdown.
 */

/** What the running process shares with the app it serves. */
export interface ServerRuntime {
  settings: ServerSettings;
  logger: Logger;
  lifecycle: Lifecycle;
}

export function serverRuntime(settings: ServerSettings): ServerRuntime {
  return { settings, logger: createLogger(settings.logLevel), lifecycle: new Lifecycle() };
}

/** What the app's server build offers for this (`app/entry.server.tsx`). */
export interface FrontDoorHooks {
  checkDatabase?: () => Promise<void>;
  sharedHitCounter?: () => SharedHitCounter | null;
  backOfficeUploadPaths?: readonly string[];
  /** Every back-office page's path (`/admin/orders/:number`): the request log writes these. */
  backOfficePaths?: readonly string[];
}

const policyOf = (req: Request): RoutePolicy => (req.res?.locals.routePolicy as RoutePolicy | undefined) ?? policies.other;

/**
 * A post to a page without a form is 405 here, with the methods it takes: React Router would
 * answer it with a page whose data names the route and says why in an error's words.
 */
export function refuseFormlessPosts(match: (pathname: string) => MatchedRoute | null) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== "POST" || req.path === "/admin" || req.path.startsWith("/admin/")) return next();
    if (match(pagePathOf(req.path).path)?.hasAction) return next();
    res.status(405).set({ Allow: "GET, HEAD", "Cache-Control": "no-store" }).type("text/plain").send("Method not allowed");
  };
}

export function installFrontDoor(app: Express, routes: Record<string, ManifestRoute | undefined>, hooks: FrontDoorHooks, runtime: ServerRuntime): { health: RequestHandler } {
  const { settings, logger, lifecycle } = runtime;
  app.set("trust proxy", settings.trustProxy);
  const match = createRouteMatcher(routes);
  app.use(logRequests(logger, routeForLog(match, hooks.backOfficePaths)));
  app.use(closeConnectionsWhileDraining(lifecycle));
  app.use(checkHostAndTarget);
  app.use(sendStrictTransportSecurity(settings.publicUrlIsHttps));
  app.use((req, res, next) => {
    res.locals.routePolicy = policyFor(req.path, match, hooks.backOfficeUploadPaths);
    next();
  });
  app.use(limitBodies((req) => policyOf(req).bodyBytes));
  app.use(timeBodies());
  const shared = hooks.sharedHitCounter?.() ?? null;
  app.use(
    rateLimit({
      store: shared ? sharedHitStore(shared, logger) : new MemoryHitStore(),
      ruleOf: (req) => {
        if (req.method !== "POST") return null;
        const policy = policyOf(req);
        return { bucket: policy.bucket, limit: policy.postsPerWindow, windowMs: policy.windowSeconds * 1000 };
      },
      clientOf: (req) => clientKey(req.ip),
      logger,
    }),
  );
  app.use(refuseFormlessPosts(match));
  return { health: healthCheck(lifecycle, hooks.checkDatabase, logger) };
}
