import { describe, expect, it } from "vitest";
import { rateLimits } from "./schema";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { countHit, pruneHits, rateLimitKey } from "./rate-limits.server";

describe("rateLimitKey", () => {
  it("keeps the bucket readable and the address only as a keyed hash", () => {
    const key = rateLimitKey("secret", "checkout", "203.0.113.7");
    expect(key).toMatch(/^checkout:[A-Za-z0-9_-]{22}$/);
    expect(key).not.toContain("203.0.113");
    expect(rateLimitKey("secret", "checkout", "203.0.113.7")).toBe(key);
    expect(rateLimitKey("other secret", "checkout", "203.0.113.7")).not.toBe(key);
    expect(rateLimitKey("secret", "forms", "203.0.113.7")).not.toBe(key);
  });
});

describe.each(databaseKinds)("the shared rate-limit counter on %s", (kind) => {
  const database = useTestDatabase(kind);
  const window = new Date("2026-03-01T10:00:00Z");

  it("counts every one of many concurrent hits in one window", async () => {
    const hits = await Promise.all(Array.from({ length: 50 }, () => countHit(database.db, "forms:a", window, 60_000)));
    expect([...hits].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it("starts again in the next window and for another key", async () => {
    expect(await countHit(database.db, "forms:a", new Date(window.getTime() + 60_000), 60_000)).toBe(1);
    expect(await countHit(database.db, "forms:b", window, 60_000)).toBe(1);
  });

  it("deletes the windows that have ended", async () => {
    await pruneHits(database.db, new Date(window.getTime() + 60_001));
    const left = await database.db.select().from(rateLimits);
    expect(left.map((row) => row.key)).toEqual(["forms:a"]);
  });
});
