import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installFrontDoor, type ServerRuntime } from "./front-door";
import { createLogger } from "./request-log";
import type { ManifestRoute } from "./route-patterns";
import { Lifecycle } from "./shutdown";

const manifest: Record<string, ManifestRoute> = {
  root: { id: "root", path: "", module: {} },
  "offer-2": { id: "offer-2", parentId: "root", path: "/offer/:locale", module: {} },
  "feedback-2": { id: "feedback-2", parentId: "root", path: "/feedback/:locale", module: { action: () => null } },
  "not-found": { id: "not-found", parentId: "root", path: "*", module: {} },
};

describe("installFrontDoor", () => {
  const lines: string[] = [];
  const runtime: ServerRuntime = {
    settings: { port: 0, host: undefined, trustProxy: ["loopback"], logLevel: "info", webConcurrency: 1, publicUrlIsHttps: false, pageCacheBytes: 0, mode: "production" },
    logger: createLogger("info", (line) => lines.push(line)),
    lifecycle: new Lifecycle(),
  };
  let base = "";
  let server: ReturnType<express.Express["listen"]>;
  beforeAll(async () => {
    const app = express();
    const { health } = installFrontDoor(app, manifest, { checkDatabase: () => Promise.resolve() }, runtime);
    app.get("/healthz", health);
    app.use((req, res) => {
      res.send(`reached ${req.method} ${req.path}`);
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
  });

  const post = (path: string, body: string, client = "198.51.100.1") =>
    fetch(`${base}${path}`, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": client } });

  it("lets a form post through to its route", async () => {
    expect(await (await post("/feedback/de", "rating=5")).text()).toBe("reached POST /feedback/de");
  });

  it("answers a post to a page without a form with 405 and the methods it takes", async () => {
    for (const path of ["/offer/de", "/offer/de.data", "/no/such/page"]) {
      const response = await post(path, "a=b");
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("GET, HEAD");
      expect(await response.text()).toBe("Method not allowed");
    }
  });

  it("checks the body's size before the rate limit, and both before the route", async () => {
    expect((await post("/feedback/de", "x".repeat(16 * 1024 + 1), "198.51.100.2")).status).toBe(413);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) statuses.push((await post("/feedback/de", "rating=5", "198.51.100.3")).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
  });

  it("answers /healthz, and 503 once draining", async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    runtime.lifecycle.drain();
    const draining = await fetch(`${base}/healthz`);
    expect(draining.status).toBe(503);
    expect(draining.headers.get("connection")).toBe("close");
  });

  it("logged every request with its route pattern", () => {
    const routes = lines.map((line) => (JSON.parse(line) as { route: string }).route);
    expect(routes).toContain("/feedback/:locale");
    expect(routes).toContain("/offer/:locale.data");
    expect(routes).toContain("*");
    expect(routes).toContain("/healthz");
  });
});
