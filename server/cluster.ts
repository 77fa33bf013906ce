import cluster, { type Worker } from "node:cluster";
import type { Logger } from "./request-log.js";

/**
 * `WEB_CONCURRENCY=N`: this process (the primary) starts N workers that each run the whole server
 * on the same port (Node's cluster hands the connections out in turn) and the same PostgreSQL. It
 * serves nothing itself: it says where the store listens once every worker does, starts a worker
 * again when one dies, and on SIGTERM or SIGINT passes the signal on and leaves once all are gone.
 */

export interface ListeningMessage {
  type: "storefront-listening";
  port: number;
}

function isListeningMessage(message: unknown): message is ListeningMessage {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === "storefront-listening";
}

/** In a worker: tells the primary that this worker listens. */
export function reportListening(port: number): void {
  const message: ListeningMessage = { type: "storefront-listening", port };
  process.send?.(message);
}

export interface PrimaryOptions {
  workers: number;
  host: string | undefined;
  logger: Logger;
  /** After this, workers still running are killed and the primary leaves with 1. */
  deadlineMs?: number;
}

/** More restarts than this within a minute means the workers cannot run: the primary gives up. */
const maxRestartsPerMinute = 5;

export function runPrimary({ workers, host, logger, deadlineMs = 10_000 }: PrimaryOptions): void {
  const listening = new Set<number>();
  const restarts: number[] = [];
  let announced = false;
  let shuttingDown = false;
  let failed = false;
  /** Every worker process until it has exited (a worker leaves `cluster.workers` when it disconnects, earlier). */
  const alive = new Set<Worker>();

  const stopAll = (signal: NodeJS.Signals) => {
    for (const worker of alive) worker.process.kill(signal);
  };

  const shutDown = (signal: NodeJS.Signals, reason?: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    console.log(reason ?? `${signal} received: stopping ${workers} storefront workers`);
    stopAll("SIGTERM");
    setTimeout(() => {
      logger.error("workers did not stop in time: killing them");
      stopAll("SIGKILL");
      process.exit(1);
    }, deadlineMs).unref();
  };

  const fork = (): Worker => {
    const worker = cluster.fork();
    alive.add(worker);
    worker.on("message", (message: unknown) => {
      if (!isListeningMessage(message)) return;
      listening.add(worker.id);
      if (!announced && listening.size >= workers) {
        announced = true;
        console.log(`Storefront listening on http://${host ?? "localhost"}:${message.port} (${workers} workers)`);
      }
    });
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    alive.delete(worker);
    const wasListening = listening.delete(worker.id);
    if (code !== 0 && code !== null) failed = true;
    if (!shuttingDown) {
      if (!wasListening) {
        // A worker that could not start (a bad setting, the database unreachable) has said why.
        shutDown("SIGTERM", "A storefront worker could not start: stopping the others");
        failed = true;
      } else {
        const now = Date.now();
        restarts.push(now);
        while ((restarts[0] ?? now) < now - 60_000) restarts.shift();
        if (restarts.length > maxRestartsPerMinute) {
          logger.error("workers keep dying: giving up", { restarts: restarts.length });
          shutDown("SIGTERM", "Storefront workers keep dying: stopping");
          failed = true;
        } else {
          logger.error("worker died: starting another", { worker: worker.id, code, signal });
          fork();
        }
      }
    }
    if (shuttingDown && alive.size === 0) process.exit(failed ? 1 : 0);
  });

  process.on("SIGTERM", () => shutDown("SIGTERM"));
  process.on("SIGINT", () => shutDown("SIGINT"));
  for (let i = 0; i < workers; i++) fork();
}
