import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countHit, pruneHits } from "../app/db/rate-limits.server";
import { openTestDatabase, type TestDatabase } from "../app/test-support/databases";
import { MemoryHitStore, rateLimit, sharedHitStore, verdict, windowStartOf, type HitStore } from "./rate-limit";
import { createLogger } from "./request-log";

const quiet = createLogger("error", () => undefined);

describe("verdict", () => {
  const rule = { bucket: "forms", limit: 3, windowMs: 60_000 };
  it.each([
    [1, 0, true, 60],
    [3, 0, true, 60],
    [4, 0, false, 60],
    [4, 59_000, false, 1],
    [4, 59_999, false, 1],
    [4, 30_500, false, 30],
    [100, 1_000, false, 59],
  ])("hit %i at %i ms into the window: allowed %s, Retry-After %i", (hits, offset, allowed, retryAfter) => {
    expect(verdict(hits, rule, 1_800_000_000_000 + offset)).toEqual({ allowed, retryAfter });
  });

  it("cuts time into fixed windows", () => {
    expect(windowStartOf(125_000, 60_000)).toBe(120_000);
    expect(windowStartOf(120_000, 60_000)).toBe(120_000);
  });
});

describe("MemoryHitStore", () => {
  it("counts per bucket and client, and starts again in the next window", async () => {
    const store = new MemoryHitStore();
    expect(await store.hit("forms", "a", 0, 60_000)).toBe(1);
    expect(await store.hit("forms", "a", 0, 60_000)).toBe(2);
    expect(await store.hit("forms", "b", 0, 60_000)).toBe(1);
    expect(await store.hit("checkout", "a", 0, 60_000)).toBe(1);
    expect(await store.hit("forms", "a", 60_000, 60_000)).toBe(1);
    store.close();
  });

  it("drops ended windows and never holds more than its bound", async () => {
    let now = 0;
    const store = new MemoryHitStore(100, () => now);
    for (let i = 0; i < 500; i++) await store.hit("forms", `client-${i}`, 0, 60_000);
    expect(store.size).toBeLessThanOrEqual(100);
    now = 60_000;
    store.prune();
    expect(store.size).toBe(0);
    store.close();
  });
});

/** The two stores the server uses: its own memory, and the app's PostgreSQL counter (TEST_DATABASE_URL). */
const stores: [string, () => Promise<{ store: HitStore; close(): Promise<void> }>][] = [
  ["memory", async () => ({ store: new MemoryHitStore(), close: async () => undefined })],
];
if (process.env.TEST_DATABASE_URL) {
  stores.push([
    "PostgreSQL",
    async () => {
      const database: TestDatabase = await openTestDatabase("postgres");
      const counter = {
        hit: (bucket: string, client: string, windowStart: Date, windowMs: number) => countHit(database.db, `${bucket}:${client}`, windowStart, windowMs),
        prune: (now?: Date) => pruneHits(database.db, now),
      };
      return { store: sharedHitStore(counter, quiet), close: () => database.drop() };
    },
  ]);
}

describe.each(stores)("the rate-limit middleware with the %s store", (_name, open) => {
  let opened: Awaited<ReturnType<typeof open>>;
  let base = "";
  let server: ReturnType<express.Express["listen"]>;
  let now = Date.UTC(2026, 2, 1, 10, 0, 15);
  beforeAll(async () => {
    opened = await open();
    const app = express();
    app.use(
      rateLimit({
        store: opened.store,
        ruleOf: (req) => (req.method === "POST" ? { bucket: req.path.slice(1), limit: 5, windowMs: 60_000 } : null),
        clientOf: (req) => String(req.headers["x-client"]),
        logger: quiet,
        clock: () => now,
      }),
    );
    app.use((_req, res) => {
      res.send("ok");
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    server.close();
    opened.store.close();
    await opened.close();
  });

  const post = (path: string, client: string) => fetch(`${base}${path}`, { method: "POST", headers: { "X-Client": client } });

  it("accepts the budget, then answers 429 with the seconds left in the window", async () => {
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await post("/forms", "203.0.113.1")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const refused = await post("/forms", "203.0.113.1");
    expect(refused.headers.get("retry-after")).toBe("45");
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.text()).toBe("Too many requests: please try again in 45 seconds.");
  });

  it("counts each client and each bucket on its own, and never limits a GET", async () => {
    expect((await post("/forms", "203.0.113.2")).status).toBe(200);
    expect((await post("/checkout", "203.0.113.1")).status).toBe(200);
    expect((await fetch(`${base}/forms`, { headers: { "X-Client": "203.0.113.1" } })).status).toBe(200);
  });

  it("counts concurrent posts exactly", async () => {
    const statuses = await Promise.all(Array.from({ length: 20 }, () => post("/burst", "203.0.113.3").then((response) => response.status)));
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it("accepts the client again in the next window", async () => {
    now += 60_000;
    expect((await post("/forms", "203.0.113.1")).status).toBe(200);
  });
});

describe("a failing store", () => {
  it("lets requests through and says so in the log", async () => {
    const lines: string[] = [];
    const app = express();
    app.use(
      rateLimit({
        store: { hit: () => Promise.reject(new Error("connection refused")), close: () => undefined },
        ruleOf: () => ({ bucket: "forms", limit: 1, windowMs: 60_000 }),
        clientOf: () => "x",
        logger: createLogger("warn", (line) => lines.push(line)),
      }),
    );
    app.use((_req, res) => {
      res.send("ok");
    });
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    expect((await fetch(url, { method: "POST" })).status).toBe(200);
    expect((await fetch(url, { method: "POST" })).status).toBe(200);
    server.close();
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ level: "warn", msg: "rate limits are not counted: their store failed", error: "connection refused" });
  });
});
