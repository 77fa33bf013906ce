import { once } from "node:events";
import { createServer, request } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyTimeouts, bodyTimeoutMs, limitBodies, policies, policyFor, serverTimeouts, timeBodies } from "./limits";
import { MemoryHitStore, rateLimit } from "./rate-limit";
import { createLogger } from "./request-log";
import { createRouteMatcher, type ManifestRoute } from "./route-patterns";

const action = { action: () => null };
const manifest: Record<string, ManifestRoute> = {
  root: { id: "root", path: "", module: {} },
  "index-2": { id: "index-2", parentId: "root", path: "/:locale", module: {} },
  checkout: { id: "checkout", parentId: "root", path: "/checkout", module: action },
  "checkout-2": { id: "checkout-2", parentId: "root", path: "/checkout/:locale", module: action },
  "withdraw-2": { id: "withdraw-2", parentId: "root", path: "/withdraw/:locale", module: action },
  refund: { id: "refund", parentId: "root", path: "/refund", module: action },
  "feedback-2": { id: "feedback-2", parentId: "root", path: "/feedback/:locale", module: action },
  "upsell-2": { id: "upsell-2", parentId: "root", path: "/upsell/:locale", module: action },
  "collagen-upsell": { id: "collagen-upsell", parentId: "root", path: "/collagen-upsell", module: action },
  "offer-2": { id: "offer-2", parentId: "root", path: "/offer/:locale", module: {} },
  "test-gateway": { id: "test-gateway", parentId: "root", path: "test-gateway/:step/:charge", module: action },
  webhooks: { id: "webhooks", parentId: "root", path: "webhooks/:provider", module: action },
  "funnel-view": { id: "funnel-view", parentId: "root", path: "funnel-view", module: action },
  "welcome-code": { id: "welcome-code", parentId: "root", path: "welcome-code", module: action },
  "not-found": { id: "not-found", parentId: "root", path: "*", module: {} },
};
const match = createRouteMatcher(manifest);

describe("policyFor", () => {
  it.each([
    ["/checkout", policies.checkout],
    ["/checkout/fr.data", policies.checkout],
    ["/test-gateway/authenticate/ch_1", policies.checkout],
    ["/withdraw/de", policies.forms],
    ["/refund", policies.forms],
    ["/feedback/fr.data", policies.forms],
    ["/upsell/fr", policies.upsell],
    ["/collagen-upsell", policies.upsell],
    ["/funnel-view", policies.funnelView],
    ["/welcome-code", policies.welcomeCode],
    ["/webhooks/stripe", policies.webhooks],
    ["/admin/login", policies.adminLogin],
    ["/admin/orders/VN-7K3M-Q9XD/refund", policies.admin],
    ["/offer/fr", policies.other],
    ["/fr", policies.other],
    ["/no/such/page", policies.other],
  ])("%s", (path, policy) => {
    expect(policyFor(path, match)).toBe(policy);
  });

  it("keeps form posts to a few KB, webhooks to 256 KB, a back-office file to 100 MB, and every budget under 200 posts in a row but for webhooks", () => {
    for (const [name, policy] of Object.entries(policies)) {
      if (name === "webhooks") expect(policy.bodyBytes).toBe(256 * 1024);
      else if (name === "adminUpload") expect(policy.bodyBytes).toBe(100 * 1024 * 1024);
      else expect(policy.bodyBytes).toBeLessThanOrEqual(32 * 1024);
      if (name !== "webhooks") expect(policy.postsPerWindow).toBeLessThan(200);
    }
    expect(policies.checkout.bodyBytes).toBeLessThanOrEqual(8 * 1024);
  });
});

describe("limitBodies", () => {
  let base = "";
  let server: ReturnType<express.Express["listen"]>;
  beforeAll(async () => {
    const app = express();
    app.use(limitBodies((req) => policyFor(req.path, match).bodyBytes));
    app.use(async (req, res) => {
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) size += chunk.length;
      res.json({ read: size });
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
  });

  /** A raw request: what fetch would not send (a lying length, chunked transfer). */
  function send(head: string, body = ""): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
    const [host, port] = base.split(":");
    return new Promise((resolve, reject) => {
      const [requestLine = "", ...headerLines] = head.split("\n");
      const [method = "GET", path = "/"] = requestLine.split(" ");
      const headers = Object.fromEntries(headerLines.filter(Boolean).map((line) => line.split(": ") as [string, string]));
      const req = request({ host, port: Number(port), method, path, headers }, (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  it("lets a body within the route's limit through, whole", async () => {
    const body = "a".repeat(policies.checkout.bodyBytes);
    expect(await send(`POST /checkout/fr\nContent-Length: ${body.length}`, body)).toMatchObject({ status: 200, text: JSON.stringify({ read: body.length }) });
  });

  it.each([
    ["/checkout/fr", policies.checkout.bodyBytes],
    ["/feedback/fr", policies.forms.bodyBytes],
    ["/upsell/fr", policies.upsell.bodyBytes],
    ["/funnel-view", policies.funnelView.bodyBytes],
    ["/welcome-code", policies.welcomeCode.bodyBytes],
    ["/webhooks/paypal", policies.webhooks.bodyBytes],
    ["/admin/fulfilment", policies.admin.bodyBytes],
  ])("answers 413 to one byte more than %s takes (%i)", async (path, limit) => {
    const body = "a".repeat(limit + 1);
    const answer = await send(`POST ${path}\nContent-Length: ${body.length}`, body);
    expect(answer.status).toBe(413);
    expect(answer.text).toBe("Request body too large");
  });

  it("refuses a huge declared body before reading it, and closes the connection", async () => {
    const answer = await send(`POST /webhooks/stripe\nContent-Length: ${50 * 1024 * 1024}`, "");
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe("close");
  });

  it("answers 411 to a body without a length", async () => {
    const answer = await send("POST /feedback/fr\nTransfer-Encoding: chunked", "rating=5");
    expect(answer.status).toBe(411);
  });
});

describe("body timeouts", () => {
  it("give a 100 MB upload the time it takes at 1 Mbit/s, and a form the 15 s of old", () => {
    const upload = policies.adminUpload.bodyBytes;
    expect(bodyTimeoutMs(upload)).toBeGreaterThanOrEqual(((upload * 8) / 1_000_000) * 1000);
    expect(bodyTimeoutMs(policies.checkout.bodyBytes)).toBeLessThanOrEqual(serverTimeouts.requestTimeout + 1000);
  });

  it("let the server itself wait for the largest upload", () => {
    const server = createServer();
    applyTimeouts(server);
    expect(server.requestTimeout).toBeGreaterThanOrEqual(bodyTimeoutMs(policies.adminUpload.bodyBytes));
    expect(server.headersTimeout).toBe(serverTimeouts.headersTimeout);
  });

  it("cut off a client that trickles its body past its time with 408, and let one that sends it through", async () => {
    const app = express();
    // A time that fits a few bytes: the trickling client below sends one byte and stops.
    app.use(timeBodies(() => 300));
    app.use(async (req, res) => {
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) size += chunk.length;
      res.json({ read: size });
    });
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    try {
      const whole = await fetch(`http://127.0.0.1:${port}/admin/files`, { method: "POST", body: "abc" });
      expect(await whole.json()).toEqual({ read: 3 });
      const socket = connect(port, "127.0.0.1");
      await once(socket, "connect");
      socket.write("POST /admin/files HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\na");
      let answer = "";
      socket.on("data", (piece: Buffer) => (answer += piece.toString()));
      await once(socket, "close");
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      server.close();
    }
  });
});

describe("the welcome code's rate limit", () => {
  it("issues five codes a minute to one address, then answers 429; another address is not affected", async () => {
    const store = new MemoryHitStore();
    const app = express();
    app.use(
      rateLimit({
        store,
        ruleOf: (req) => {
          const policy = policyFor(req.path, match);
          return req.method === "POST" ? { bucket: policy.bucket, limit: policy.postsPerWindow, windowMs: policy.windowSeconds * 1000 } : null;
        },
        clientOf: (req) => String(req.headers["x-client"]),
        logger: createLogger("error", () => undefined),
        clock: () => Date.UTC(2026, 2, 1, 10, 0, 15),
      }),
    );
    app.use((_req, res) => {
      res.json({ code: "HELLOABCDEFGH" });
    });
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const post = (client: string) => fetch(`${base}/welcome-code`, { method: "POST", headers: { "X-Client": client } }).then((response) => response.status);
    try {
      const statuses = [];
      for (let i = 0; i < 7; i++) statuses.push(await post("203.0.113.7"));
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(await post("203.0.113.8")).toBe(200);
    } finally {
      server.close();
      store.close();
    }
  });
});
