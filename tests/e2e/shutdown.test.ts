import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailbox, type Mailbox } from "./support/mailbox";
import { placeOrder } from "./support/orders-over-http";
import { rawRequest } from "./support/raw-http";
import { startServer, type RunningServer } from "./support/server";

/** Graceful shutdown of the production server: what is in flight finishes, nothing new starts, exit 0. */

const exitOf = (server: RunningServer) => once(server.process, "exit").then(([code]) => code as number | null);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the function that fulfils it. */
function signal(): { done: Promise<void>; fire: () => void } {
  let fire = () => {};
  const done = new Promise<void>((resolve) => (fire = resolve));
  return { done, fire };
}

// Each test starts a server of its own, on a fresh embedded database, which alone can take a
// minute on a busy machine: the time allowed is generous, no test waits for it to pass.
const ownServer = { timeout: 120_000 };

describe("graceful shutdown", () => {
  it("answers /healthz with the database's state", ownServer, async () => {
    const server = await startServer({ LOG_LEVEL: "warn" });
    try {
      const response = await fetch(`${server.url}/healthz`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
    } finally {
      await server.stop();
    }
  });

  it("finishes a request in flight, says 503 on /healthz meanwhile, refuses new connections and exits 0", ownServer, async () => {
    const server = await startServer({ LOG_LEVEL: "warn" });
    const body = "rating=5&comment=Schnell%20geliefert";
    const half = Math.floor(body.length / 2);
    // A feedback post whose body is half sent, and a health check whose headers are not finished.
    const postSent = signal();
    const healthSent = signal();
    const inFlight = rawRequest(
      server.url,
      [`POST /feedback/de HTTP/1.1\r\nHost: shop\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, half)}`, body.slice(half)],
      { everyMs: 1_500, timeoutMs: 15_000, onFirstWrite: postSent.fire },
    );
    const health = rawRequest(server.url, ["GET /healthz HTTP/1.1\r\nHost: shop\r\n", "\r\n"], { everyMs: 1_500, timeoutMs: 15_000, onFirstWrite: healthSent.fire });
    await Promise.all([postSent.done, healthSent.done]);
    // Connections are accepted in the order they came: once a request on a third one is answered,
    // the server has taken both and read their first bytes, so both are in flight.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const exited = exitOf(server);
    const signalled = Date.now();
    server.process.kill("SIGTERM");
    // The server says so once it has stopped listening.
    await expect.poll(() => server.output(), { timeout: 30_000, interval: 50 }).toContain("SIGTERM received");
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(new URL(server.url).port), "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(true));
    });
    expect(refused).toBe(true);

    const [post, check] = await Promise.all([inFlight, health]);
    expect(post.status).toBe(200);
    expect(post.text).toMatch(/\r\nConnection: close\r\n/i);
    expect(check.status).toBe(503);
    expect(check.text).toContain('{"status":"draining"}');
    expect(await exited).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    await server.stop();
  });

  describe("with the outbox sending", () => {
    let dataDir: string;
    let mailbox: Mailbox;
    let restarted: RunningServer | undefined;
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), "storefront-shutdown-"));
      // An SMTP server that takes three seconds to accept each message.
      mailbox = await startMailbox({ acceptAfterMs: 3_000 });
    });
    afterAll(async () => {
      await restarted?.stop();
      await mailbox.close();
      await rm(dataDir, { recursive: true, force: true });
    });

    it("lets the worker finish the e-mail it is sending, exits 0, and the next start sends nothing twice", ownServer, async () => {
      const server = await startServer({ DATA_DIR: dataDir, SMTP_URL: mailbox.url, LOG_LEVEL: "warn" });
      const order = await placeOrder(server.url);
      await expect.poll(() => mailbox.receiving(), { timeout: 15_000, interval: 50 }).toBe(1);
      const exited = exitOf(server);
      const signalled = Date.now();
      server.process.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      expect(mailbox.messages.filter((message) => message.includes(order.number))).toHaveLength(1);

      restarted = await startServer({ DATA_DIR: dataDir, SMTP_URL: mailbox.url, LOG_LEVEL: "warn" });
      await pause(5_000);
      expect(mailbox.messages.filter((message) => message.includes(order.number))).toHaveLength(1);
    });
  });
});
