import type { NextFunction, Request, Response } from "express";
import type { Logger } from "./request-log.js";

/**
 * Rate limits in fixed windows: each client has a budget of posts per bucket and window; the
 * first post beyond it, and every one after it in that window, is answered 429 with
 * `Retry-After` (the seconds until the window ends). The count is one atomic increment in a store:
 * in memory for one process, in PostgreSQL for several (`app/db/rate-limits.server.ts`).
 */

export interface HitStore {
  /** One hit more for this bucket and client in the window starting at `windowStart` (ms); the hits so far, this one included. */
  hit(bucket: string, client: string, windowStart: number, windowMs: number): Promise<number>;
  /** Stops its housekeeping. */
  close(): void;
}

export interface RateRule {
  bucket: string;
  limit: number;
  windowMs: number;
}

export interface Verdict {
  allowed: boolean;
  /** Seconds until the window ends, at least 1. */
  retryAfter: number;
}

export function windowStartOf(now: number, windowMs: number): number {
  return Math.floor(now / windowMs) * windowMs;
}

export function verdict(hits: number, rule: RateRule, now: number): Verdict {
  const end = windowStartOf(now, rule.windowMs) + rule.windowMs;
  return { allowed: hits <= rule.limit, retryAfter: Math.max(1, Math.ceil((end - now) / 1000)) };
}

/** The store of one process. Windows that have ended are dropped every minute, and it never holds more than `maxEntries`. */
export class MemoryHitStore implements HitStore {
  private readonly entries = new Map<string, { windowStart: number; windowEnd: number; hits: number }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly maxEntries = 100_000,
    private readonly clock: () => number = Date.now,
  ) {
    this.timer = setInterval(() => this.prune(), 60_000);
    this.timer.unref();
  }

  hit(bucket: string, client: string, windowStart: number, windowMs: number): Promise<number> {
    const key = `${bucket}\n${client}`;
    const entry = this.entries.get(key);
    if (entry && entry.windowStart === windowStart) {
      entry.hits += 1;
      return Promise.resolve(entry.hits);
    }
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.prune();
    // Still full of live windows (many clients at once): the oldest give way.
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { windowStart, windowEnd: windowStart + windowMs, hits: 1 });
    return Promise.resolve(1);
  }

  get size(): number {
    return this.entries.size;
  }

  prune(): void {
    const now = this.clock();
    for (const [key, entry] of this.entries) if (entry.windowEnd <= now) this.entries.delete(key);
  }

  close(): void {
    clearInterval(this.timer);
  }
}

/** The app's counter in PostgreSQL, shared by every instance on the database. */
export interface SharedHitCounter {
  hit(bucket: string, client: string, windowStart: Date, windowMs: number): Promise<number>;
  prune(now?: Date): Promise<void>;
}

/** Adapts the shared counter and deletes ended windows every few minutes (from any instance: deleting twice is harmless). */
export function sharedHitStore(counter: SharedHitCounter, logger: Logger, pruneEveryMs = 5 * 60_000): HitStore {
  const timer = setInterval(() => {
    counter.prune().catch((error: unknown) => logger.warn("rate-limit windows could not be pruned", { error: error instanceof Error ? error.message : String(error) }));
  }, pruneEveryMs);
  timer.unref();
  return {
    hit: (bucket, client, windowStart, windowMs) => counter.hit(bucket, client, new Date(windowStart), windowMs),
    close: () => clearInterval(timer),
  };
}

export interface RateLimitOptions {
  store: HitStore;
  /** The rule for this request, or null when it is not limited. */
  ruleOf(req: Request): RateRule | null;
  /** Who the request counts against (its address, as far as the proxies are trusted). */
  clientOf(req: Request): string;
  logger: Logger;
  clock?: () => number;
}

/**
 * The middleware. When the store fails (the database is unreachable) the request goes through:
 * refusing every buyer would be worse than a moment without limits; the log says so, once a minute.
 */
export function rateLimit({ store, ruleOf, clientOf, logger, clock = Date.now }: RateLimitOptions) {
  let lastWarning = 0;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const rule = ruleOf(req);
    if (!rule) return next();
    const now = clock();
    let hits: number;
    try {
      hits = await store.hit(rule.bucket, clientOf(req), windowStartOf(now, rule.windowMs), rule.windowMs);
    } catch (error) {
      if (now - lastWarning > 60_000) {
        lastWarning = now;
        logger.warn("rate limits are not counted: their store failed", { error: error instanceof Error ? error.message : String(error) });
      }
      return next();
    }
    const { allowed, retryAfter } = verdict(hits, rule, now);
    if (allowed) return next();
    res
      .status(429)
      .set({ "Retry-After": String(retryAfter), "Cache-Control": "no-store" })
      .type("text/plain")
      .send(`Too many requests: please try again in ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`);
  };
}
