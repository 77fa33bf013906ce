import { countHit, pruneHits, rateLimitKey, type SharedHitCounter } from "../db/rate-limits.server";
import { store } from "../store/store.server";

/** The shared counter when the store runs on PostgreSQL; null on the embedded database. */
export function sharedHitCounter(): SharedHitCounter | null {
  const current = store();
  if (current.databaseKind !== "postgres") return null;
  return {
    hit: (bucket, client, windowStart, windowMs) => countHit(current.db, rateLimitKey(current.signingKey, bucket, client), windowStart, windowMs),
    prune: (now) => pruneHits(current.db, now),
  };
}
