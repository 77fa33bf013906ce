import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { createLogger } from "./request-log";
import { closeConnectionsWhileDraining, gracefulShutdown, healthCheck, Lifecycle } from "./shutdown";

const quiet = createLogger("error", () => undefined);

async function serve(app: express.Express) {
  const server = createServer(app);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe("healthCheck", () => {
  it.each([
    ["the database answers", () => Promise.resolve(), false, 200, { status: "ok" }],
    ["the database fails", () => Promise.reject(new Error("ECONNREFUSED")), false, 503, { status: "unavailable", database: "unreachable" }],
    ["the database hangs", () => new Promise<void>(() => undefined), false, 503, { status: "unavailable", database: "unreachable" }],
    ["the server drains", () => Promise.resolve(), true, 503, { status: "draining" }],
  ])("answers when %s", async (_case, check, draining, status, body) => {
    const lifecycle = new Lifecycle();
    if (draining) lifecycle.drain();
    const app = express();
    app.get("/healthz", healthCheck(lifecycle, check, quiet, 100));
    const { server, url } = await serve(app);
    const response = await fetch(`${url}/healthz`);
    server.close();
    expect(response.status).toBe(status);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual(body);
  });
});

describe("gracefulShutdown", () => {
  it("finishes the request in flight, closes its connection, then the store, and exits 0", async () => {
    const lifecycle = new Lifecycle();
    const app = express();
    app.use(closeConnectionsWhileDraining(lifecycle));
    let started: () => void = () => undefined;
    const requestStarted = new Promise<void>((resolve) => (started = resolve));
    const events: string[] = [];
    app.get("/slow", (_req, res) => {
      started();
      res.on("finish", () => events.push("response sent"));
      setTimeout(() => res.send("done"), 300);
    });
    const { server, url } = await serve(app);
    const exited = new Promise<number>((resolve) => {
      const shutDown = gracefulShutdown({
        server,
        lifecycle,
        logger: quiet,
        closeStore: async () => {
          events.push("store closed");
        },
        exit: (code) => {
          events.push(`exit ${code}`);
          resolve(code);
        },
      });
      void requestStarted.then(() => {
        shutDown("SIGTERM");
        shutDown("SIGTERM");
      });
    });
    const response = await fetch(`${url}/slow`);
    expect(await response.text()).toBe("done");
    expect(response.headers.get("connection")).toBe("close");
    expect(await exited).toBe(0);
    expect(events).toEqual(["response sent", "store closed", "exit 0"]);
    await expect(fetch(`${url}/slow`)).rejects.toThrow();
  });

  it("abandons a request that does not finish, and still leaves in time", async () => {
    const lifecycle = new Lifecycle();
    const app = express();
    app.get("/never", () => undefined);
    const { server, url } = await serve(app);
    const pending = fetch(`${url}/never`).catch(() => "abandoned");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const code = await new Promise<number>((resolve) => {
      gracefulShutdown({ server, lifecycle, logger: quiet, closeStore: () => Promise.resolve(), exit: resolve, abandonAfterMs: 200, deadlineMs: 2_000 })("SIGINT");
    });
    expect(code).toBe(0);
    expect(await pending).toBe("abandoned");
  });
});
