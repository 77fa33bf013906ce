import type { Server } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { pagePathOf, type MatchedRoute } from "./route-patterns.js";

/**
 * What a request may cost the server: the size of its body and, for posts, how many one client may
 * send in a minute, chosen per kind of route. A buyer filling in the checkout or answering upsells
 * stays far below every budget; a script posting in a loop does not.
 */
export interface RoutePolicy {
  /** The rate limit's bucket: the routes of one kind share their budget. */
  bucket: string;
  /** The largest body accepted, in bytes; beyond it the answer is 413. */
  bodyBytes: number;
  /** Posts accepted per client and window; beyond it the answer is 429 with Retry-After. */
  postsPerWindow: number;
  windowSeconds: number;
}

const kb = 1024;

export const policies = {
  /** The checkout and the test gateway's pages: a buyer retries a declined card a few times at most. */
  checkout: { bucket: "checkout", bodyBytes: 8 * kb, postsPerWindow: 30, windowSeconds: 60 },
  /** Upsell answers (the routes with a form not named below): one click per offer. */
  upsell: { bucket: "upsell", bodyBytes: 4 * kb, postsPerWindow: 60, windowSeconds: 60 },
  /** Withdrawal (form, review, confirm), refund request and feedback: feedback's 2,000-character comment, percent-encoded. */
  forms: { bucket: "forms", bodyBytes: 16 * kb, postsPerWindow: 20, windowSeconds: 60 },
  /** The funnel's page-view beacon: about 50 bytes, one per page a visitor opens. */
  funnelView: { bucket: "funnel-view", bodyBytes: 1 * kb, postsPerWindow: 120, windowSeconds: 60 },
  /** A visitor's welcome code: one per visitor is all the claim section asks for; a few for a shared address. */
  welcomeCode: { bucket: "welcome-code", bodyBytes: 1 * kb, postsPerWindow: 5, windowSeconds: 60 },
  /** Payment providers' events: they come from a few addresses, in bursts during a sale. */
  webhooks: { bucket: "webhooks", bodyBytes: 256 * kb, postsPerWindow: 600, windowSeconds: 60 },
  /** The back office's login (failed logins also lock the account tried, in the app). */
  adminLogin: { bucket: "admin-login", bodyBytes: 4 * kb, postsPerWindow: 10, windowSeconds: 60 },
  /** A digital product's file uploaded in the back office (larger ones go through the command line). */
  adminUpload: { bucket: "admin", bodyBytes: 100 * 1024 * kb, postsPerWindow: 120, windowSeconds: 60 },
  /** The back office's other forms; marking orders fulfilled sends one 40-byte field per order. */
  admin: { bucket: "admin", bodyBytes: 32 * kb, postsPerWindow: 120, windowSeconds: 60 },
  /** A post to a page without a form, or anywhere else. */
  other: { bucket: "other", bodyBytes: 8 * kb, postsPerWindow: 60, windowSeconds: 60 },
} as const satisfies Record<string, RoutePolicy>;

const formRoutes = new Set(["withdraw", "refund", "feedback"]);

/**
 * The policy of a path, from the route it belongs to (`checkout-2` is `checkout` with its locale);
 * the back office names the paths of its pages that take a file (`backOfficeUploadPaths`).
 */
export function policyFor(pathname: string, match: (pathname: string) => MatchedRoute | null, uploadPaths: readonly string[] = []): RoutePolicy {
  if (pathname === "/admin/login" || pathname === "/admin/login/") return policies.adminLogin;
  if (uploadPaths.some((path) => pathname === path || pathname === `${path}/`)) return policies.adminUpload;
  if (pathname === "/admin" || pathname.startsWith("/admin/")) return policies.admin;
  const route = match(pagePathOf(pathname).path);
  if (!route) return policies.other;
  const name = route.id.replace(/-2$/, "");
  if (name === "checkout" || name === "test-gateway") return policies.checkout;
  if (formRoutes.has(name)) return policies.forms;
  if (name === "funnel-view") return policies.funnelView;
  if (name === "webhooks") return policies.webhooks;
  if (name === "welcome-code") return policies.welcomeCode;
  return route.hasAction ? policies.upsell : policies.other;
}

/**
 * Timeouts of the HTTP server. A client that trickles its headers is cut off after 10 s, and an idle
 * kept-alive connection is closed after 5 s (a reverse proxy's own keep-alive to the server must be
 * shorter). A body gets 15 s plus the time its declared length takes at 1 Mbit/s (`timeBodies`):
 * a form still has about 15 s, a 100 MB upload about 14 minutes. Node's own request timeout is the
 * outer bound, set to the largest upload's time; it checks every second instead of every 30 s.
 */
export const serverTimeouts = {
  headersTimeout: 10_000,
  requestTimeout: 15_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
} as const;

/** The slowest upload waited for: 1 Mbit/s, a poor mobile uplink. */
const slowestBodyBytesPerSecond = 125_000;

/** How long a body of `length` bytes may take to arrive. */
export function bodyTimeoutMs(length: number): number {
  return serverTimeouts.requestTimeout + Math.ceil((length / slowestBodyBytesPerSecond) * 1000);
}

export function applyTimeouts(server: Server): void {
  server.headersTimeout = serverTimeouts.headersTimeout;
  server.requestTimeout = bodyTimeoutMs(policies.adminUpload.bodyBytes);
  server.keepAliveTimeout = serverTimeouts.keepAliveTimeout;
}

/**
 * Cuts off a request whose body has not arrived within the time its length fits (`bodyTimeoutMs`):
 * 408, and the connection closed. The time runs until the body has arrived or the answer is sent.
 */
export function timeBodies(timeoutOf: (length: number) => number = bodyTimeoutMs) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const length = Number(req.headers["content-length"] ?? 0);
    if (!(length > 0) || req.complete) return next();
    const timer = setTimeout(() => {
      if (req.complete) return;
      if (res.headersSent) {
        req.socket.destroy();
        return;
      }
      res.once("finish", () => req.socket.destroy());
      res.setHeader("Connection", "close");
      res.status(408).set("Cache-Control", "no-store").type("text/plain").send("The request's body took too long.");
    }, timeoutOf(length));
    timer.unref();
    const stop = () => clearTimeout(timer);
    req.once("end", stop);
    res.once("close", stop);
    next();
  };
}

/** A refused body larger than this is not read to the end: the connection is closed after the answer. */
const drainedAtMost = 1024 * kb;

function refuse(res: Response, status: 411 | 413, text: string, closeConnection: boolean): void {
  if (closeConnection) res.setHeader("Connection", "close");
  res.status(status).set("Cache-Control", "no-store").type("text/plain").send(text);
}

/**
 * Refuses a body larger than its route takes before any of it is read: its declared
 * `Content-Length` is compared, and Node's parser delivers no more than that length, so the
 * declaration is a hard cap on what the app can read. A body without a length (chunked transfer,
 * which no browser form or provider webhook uses) gets 411.
 */
export function limitBodies(limitOf: (req: Request) => number) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.headers["transfer-encoding"] !== undefined) {
      refuse(res, 411, "Send the body with a Content-Length.", true);
      return;
    }
    const length = Number(req.headers["content-length"] ?? 0);
    if (length > limitOf(req)) {
      refuse(res, 413, "Request body too large", length > drainedAtMost);
      return;
    }
    next();
  };
}
