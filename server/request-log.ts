import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * The server's structured log: one JSON object per line on standard output, for a log collector.
 * A request's line names its route pattern (`/checkout/:locale`), never the address as typed: a
 * query string may carry an e-mail address, a path an order's secret. No header, cookie, client
 * address or body is ever written.
 */

const logLevels = ["error", "warn", "info", "debug"] as const;
export type LogLevel = (typeof logLevels)[number];

/** `LOG_LEVEL`: the least severe level written (default `info`); anything else stops the server naming the variable. */
export function readLogLevel(value: string | undefined): LogLevel {
  const level = (value ?? "").trim().toLowerCase();
  if (level === "") return "info";
  if ((logLevels as readonly string[]).includes(level)) return level as LogLevel;
  throw new Error(`LOG_LEVEL must be one of ${logLevels.join(", ")}, got '${value}'.`);
}

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  readonly level: LogLevel;
  enabled(level: LogLevel): boolean;
  log(level: LogLevel, message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

export function createLogger(level: LogLevel, write: (line: string) => void = (line) => process.stdout.write(line)): Logger {
  const threshold = logLevels.indexOf(level);
  const enabled = (at: LogLevel) => logLevels.indexOf(at) <= threshold;
  const log = (at: LogLevel, message: string, fields: LogFields = {}) => {
    if (enabled(at)) write(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg: message, ...fields })}\n`);
  };
  return {
    level,
    enabled,
    log,
    error: (message, fields) => log("error", message, fields),
    warn: (message, fields) => log("warn", message, fields),
    info: (message, fields) => log("info", message, fields),
    debug: (message, fields) => log("debug", message, fields),
  };
}

const saneRequestId = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;

/** The request's id: a proxy's `X-Request-Id` when it looks like one (letters, digits, `._:-`, at most 100), else a new UUID. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === "string" && saneRequestId.test(incoming) ? incoming : randomUUID();
}

/** The pattern a request is logged under, from its path (without query) and its answer's status. */
export type RouteOf = (pathname: string, status: number) => string;

/**
 * Logs each request once its answer is sent (or the client went away): level `error` for a 5xx,
 * `info` otherwise. The id goes back in `X-Request-Id` and stays in `res.locals.requestId`.
 */
export function logRequests(logger: Logger, routeOf: RouteOf) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = performance.now();
    const id = requestIdOf(req.headers["x-request-id"]);
    res.locals.requestId = id;
    res.setHeader("X-Request-Id", id);
    let logged = false;
    const done = () => {
      if (logged) return;
      logged = true;
      const status = res.statusCode;
      const level: LogLevel = status >= 500 ? "error" : "info";
      if (!logger.enabled(level)) return;
      const pathname = (req.originalUrl.split("?", 1)[0] ?? "/") || "/";
      logger.log(level, "request", {
        method: req.method,
        route: routeOf(pathname, status),
        status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        id,
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    };
    res.once("finish", done);
    res.once("close", done);
    next();
  };
}
