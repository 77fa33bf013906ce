import type { Server } from "node:http";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "./request-log.js";

/**
 * Graceful shutdown (SIGTERM, SIGINT): the server stops accepting connections, answers what is
 * still asked on open ones with `Connection: close` (and `/healthz` with 503), finishes the
 * requests in flight, then the store finishes the e-mail it is sending and closes the database.
 */
export class Lifecycle {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  drain(): void {
    this.#draining = true;
  }
}

/**
 * While draining, every answer closes its connection, so that clients reconnect to another
 * instance; decided when the answer's head is written, so a request already in flight when the
 * signal came is included.
 */
export function closeConnectionsWhileDraining(lifecycle: Lifecycle) {
  return (_req: Request, res: Response, next: NextFunction): void => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
      if (lifecycle.draining) this.setHeader("Connection", "close");
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  };
}

function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<void>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * `/healthz`: 200 `{"status":"ok"}` when the database answers `select 1` within two seconds;
 * 503 `{"status":"draining"}` during shutdown, 503 `{"status":"unavailable"}` when the database
 * does not answer (the reason goes to the log, not to the caller).
 */
export function healthCheck(lifecycle: Lifecycle, checkDatabase: (() => Promise<void>) | undefined, logger: Logger, timeoutMs = 2_000) {
  return async (_req: Request, res: Response): Promise<void> => {
    res.setHeader("Cache-Control", "no-store");
    if (lifecycle.draining) {
      res.status(503).json({ status: "draining" });
      return;
    }
    try {
      if (checkDatabase) await withTimeout(checkDatabase(), timeoutMs);
      res.json({ status: "ok" });
    } catch (error) {
      logger.error("health check: the database does not answer", { error: error instanceof Error ? error.message : String(error) });
      res.status(503).json({ status: "unavailable", database: "unreachable" });
    }
  };
}

export interface ShutdownOptions {
  server: Server;
  lifecycle: Lifecycle;
  /** Stops the store: the outbox worker's message in hand, then the database. */
  closeStore(): Promise<void>;
  logger: Logger;
  exit?: (code: number) => void;
  /** After this, connections still open are closed (their requests are abandoned). */
  abandonAfterMs?: number;
  /** After this, the process leaves with 1 whatever is still running. */
  deadlineMs?: number;
}

/** The signal handler: the first signal starts the shutdown, later ones change nothing. */
export function gracefulShutdown({
  server,
  lifecycle,
  closeStore,
  logger,
  exit = (code) => process.exit(code),
  abandonAfterMs = 7_000,
  deadlineMs = 10_000,
}: ShutdownOptions): (signal: string) => void {
  return (signal) => {
    if (lifecycle.draining) return;
    lifecycle.drain();
    const started = Date.now();
    const abandon = setTimeout(() => {
      logger.warn("shutdown: requests still running are abandoned");
      server.closeAllConnections();
    }, abandonAfterMs);
    abandon.unref();
    setTimeout(() => {
      logger.error("shutdown did not finish in time");
      exit(1);
    }, deadlineMs).unref();
    server.close(() => {
      clearTimeout(abandon);
      closeStore().then(
        () => {
          logger.info("shutdown complete", { ms: Date.now() - started });
          exit(0);
        },
        (error: unknown) => {
          logger.error("shutdown: the store did not close", { error: error instanceof Error ? error.message : String(error) });
          exit(1);
        },
      );
    });
    server.closeIdleConnections();
    // Said once this process has stopped listening: from this line on, a new connection to a
    // server of its own is refused.
    console.log(`${signal} received: closing the storefront server`);
  };
}
