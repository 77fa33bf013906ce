import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { placeOrder } from "./support/orders-over-http";
import { createPostgresDatabase } from "./support/postgres";
import { awayFromWindowEdge } from "./support/rate-window";
import { startServer, type RunningServer } from "./support/server";

/**
 * More than one server on one PostgreSQL (TEST_DATABASE_URL): separate instances, as behind a
 * load balancer, and WEB_CONCURRENCY workers on one machine.
 */

const serverEntry = new URL("../../build/app-server/main.js", import.meta.url).pathname;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("WEB_CONCURRENCY on the embedded database", () => {
  it("is refused at start, saying why and what to do", () => {
    const result = spawnSync(process.execPath, [serverEntry], { env: { ...process.env, PORT: "0", WEB_CONCURRENCY: "2", DATABASE_URL: "" }, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("WEB_CONCURRENCY=2 would start 2 server processes, but the embedded database (used while DATABASE_URL is not set) allows only one.");
    expect(result.stderr).toContain("Set DATABASE_URL to a PostgreSQL server, or leave WEB_CONCURRENCY unset.");
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("instances sharing one PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let mailbox: Mailbox;
  let servers: RunningServer[] = [];
  beforeAll(async () => {
    database = await createPostgresDatabase("instances");
    mailbox = await startMailbox();
    const env = { DATABASE_URL: database.url, SMTP_URL: mailbox.url, LOG_LEVEL: "warn" };
    // Both migrate at once: the advisory lock lets one do it.
    servers = await Promise.all([startServer(env), startServer(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await mailbox?.close();
    await database?.drop();
  });

  it("take orders concurrently, and every confirmation is sent exactly once", { timeout: 90_000 }, async () => {
    const [a, b] = servers;
    if (!a || !b) throw new Error("no servers");
    const placed = await Promise.all(Array.from({ length: 16 }, (_, i) => placeOrder((i % 2 === 0 ? a : b).url, { email: `buyer${i}@example.com` })));
    const numbers = placed.map((order) => order.number);
    expect(new Set(numbers).size).toBe(16);
    await expect.poll(() => mailbox.messages.length, { timeout: 30_000 }).toBe(16);
    // Both outbox workers keep polling: still one message per order a while later.
    await pause(5_000);
    expect(mailbox.messages).toHaveLength(16);
    for (const number of numbers) expect(mailbox.messages.filter((message) => message.includes(number)), number).toHaveLength(1);
    const rows = await database.query<{ status: string; n: string }>("select status, count(*) as n from outbox group by status");
    expect(rows).toEqual([{ status: "sent", n: "16" }]);
  });

  it("count one client's posts together, whichever instance takes them", async () => {
    const [a, b] = servers;
    if (!a || !b) throw new Error("no servers");
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${(i % 2 === 0 ? a : b).url}/withdraw/de`, { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "name=" });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
    const stored = await database.query<{ key: string; hits: number }>("select key, hits from rate_limits where key like 'forms:%'");
    expect(stored).toHaveLength(1);
    expect(stored[0]?.hits).toBe(30);
    expect(stored[0]?.key).not.toContain("127.0.0.1");
  });

  it("answer /healthz with 503 when the database is gone", async () => {
    const [a] = servers;
    if (!a) throw new Error("no server");
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    const other = await createPostgresDatabase("instances_gone");
    const server = await startServer({ DATABASE_URL: other.url, LOG_LEVEL: "warn" });
    try {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      await other.drop();
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: "unavailable", database: "unreachable" });
    } finally {
      await server.stop();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("WEB_CONCURRENCY workers on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  beforeAll(async () => {
    database = await createPostgresDatabase("workers");
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("starts N workers on one port, which take orders, and all stop with exit 0 on SIGTERM", { timeout: 60_000 }, async () => {
    const server = await startServer({ DATABASE_URL: database.url, WEB_CONCURRENCY: "3", LOG_LEVEL: "warn" });
    try {
      expect(server.output()).toMatch(/listening on http:\/\/\S+ \(3 workers\)/);
      const pages = await Promise.all(Array.from({ length: 30 }, () => fetch(`${server.url}/offer/de`).then((response) => response.status)));
      expect(pages.every((status) => status === 200)).toBe(true);
      const order = await placeOrder(server.url);
      expect(order.number).toMatch(/^VN-/);
      const exited = once(server.process, "exit");
      const signalled = Date.now();
      server.process.kill("SIGTERM");
      const [code] = await exited;
      expect(code).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(server.output().match(/SIGTERM received: closing the storefront server/g)).toHaveLength(3);
    } finally {
      await server.stop();
    }
  });

  it("stops when a worker cannot start, with that worker's reason", () => {
    const result = spawnSync(process.execPath, [serverEntry], { env: { ...process.env, PORT: "0", DATABASE_URL: database.url, WEB_CONCURRENCY: "2", GTM_ID: "nope" }, encoding: "utf8", timeout: 30_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("'nope' is not a valid GTM-ID");
  });
});
