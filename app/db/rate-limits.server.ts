import { createHmac } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { Queryable } from "./database.server";
import { rateLimits } from "./schema";

/**
 * The rate limits' counter in PostgreSQL, so that every instance on one database counts the same
 * client together (the HTTP server keeps its own counter in memory on the embedded database, which
 * allows one process anyway).
 */
export interface SharedHitCounter {
  /** One hit more for this bucket and client in the window that starts at `windowStart`; the window's hits so far. */
  hit(bucket: string, client: string, windowStart: Date, windowMs: number): Promise<number>;
  /** Deletes the windows that have ended. */
  prune(now?: Date): Promise<void>;
}

/** The stored key: the bucket in clear, the address only as a keyed hash (it is personal data). */
export function rateLimitKey(signingKey: string, bucket: string, client: string): string {
  return `${bucket}:${createHmac("sha256", signingKey).update(`rate-limit\n${client}`).digest("base64url").slice(0, 22)}`;
}

/** One atomic upsert: concurrent hits from several instances all count. */
export async function countHit(db: Queryable, key: string, windowStart: Date, windowMs: number): Promise<number> {
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart, hits: 1, expiresAt: new Date(windowStart.getTime() + windowMs) })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { hits: sql`${rateLimits.hits} + 1` } })
    .returning({ hits: rateLimits.hits });
  return row?.hits ?? 1;
}

export async function pruneHits(db: Queryable, now = new Date()): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.expiresAt, now));
}
