import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { placeOrder } from "./support/orders-over-http";
import { rawRequest } from "./support/raw-http";
import { awayFromWindowEdge } from "./support/rate-window";
import { startServer, type RunningServer } from "./support/server";

/**
 * The server's limits against the production build: body sizes per route (413), posts per client
 * (429 with Retry-After), clients that trickle their request (cut off by the timeouts), which
 * proxies are believed (TRUST_PROXY), HSTS, and the request log.
 */

const serverEntry = new URL("../../build/app-server/main.js", import.meta.url).pathname;
const form = { "Content-Type": "application/x-www-form-urlencoded" };

/** Each test's posts come from an address of their own, through the (trusted) local proxy. */
let nextClient = 1;
const client = () => ({ "X-Forwarded-For": `198.51.100.${nextClient++}` });

describe("limits behind a trusted proxy (TRUST_PROXY=loopback)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each([
    ["checkout", "/checkout/de?bundle=shape-3", 8 * 1024],
    ["upsell answer", "/upsell/de", 4 * 1024],
    ["upsell answer (data request)", "/upsellMind/de.data", 4 * 1024],
    ["test gateway", "/test-gateway/authenticate/none", 8 * 1024],
    ["withdrawal", "/withdraw/de", 16 * 1024],
    ["refund request", "/refund/fr", 16 * 1024],
    ["feedback", "/feedback/fr", 16 * 1024],
    ["funnel view", "/funnel-view", 1024],
    ["welcome code", "/welcome-code", 1024],
    ["webhook", "/webhooks/stripe", 256 * 1024],
    ["back-office login", "/admin/login", 4 * 1024],
    ["back-office action", "/admin/fulfilment", 32 * 1024],
    ["page without a form", "/offer/de", 8 * 1024],
  ])("%s: a body of its limit passes, one byte more is 413", async (_name, path, limit) => {
    const within = await fetch(`${server.url}${path}`, { method: "POST", headers: { ...form, ...client() }, body: "x".repeat(limit), redirect: "manual" });
    expect(within.status).not.toBe(413);
    expect(within.status).toBeLessThan(500);
    const over = await fetch(`${server.url}${path}`, { method: "POST", headers: { ...form, ...client() }, body: "x".repeat(limit + 1), redirect: "manual" });
    expect(over.status).toBe(413);
    expect(await over.text()).toBe("Request body too large");
  });

  it("refuses a huge declared body at once, without reading it, and closes the connection", async () => {
    const answer = await rawRequest(server.url, [`POST /webhooks/stripe HTTP/1.1\r\nHost: shop\r\nContent-Type: application/json\r\nContent-Length: ${200 * 1024 * 1024}\r\n\r\n{"id":`]);
    expect(answer.status).toBe(413);
    expect(answer.text).toContain("Connection: close");
    expect(answer.closedAfterMs).not.toBeNull();
  });

  it("answers 411 to a chunked body", async () => {
    const answer = await rawRequest(server.url, ["POST /feedback/fr HTTP/1.1\r\nHost: shop\r\nTransfer-Encoding: chunked\r\nContent-Type: application/x-www-form-urlencoded\r\n\r\n8\r\nrating=5\r\n0\r\n\r\n"]);
    expect(answer.status).toBe(411);
  });

  it("accepts a burst of posts up to the budget, then answers 429 with Retry-After; another client is not affected", async () => {
    const burst = client();
    await awayFromWindowEdge();
    const statuses: number[] = [];
    let retryAfter = "";
    for (let i = 0; i < 200; i++) {
      const response = await fetch(`${server.url}/feedback/fr`, { method: "POST", headers: { ...form, ...burst }, body: "rating=9" });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get("retry-after") ?? "";
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, 20).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    const buyer = await placeOrder(server.url, { headers: client() });
    expect(buyer.number).toMatch(/^VN-/);
  });

  it("limits the back-office login per address", async () => {
    const from = client();
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const response = await fetch(`${server.url}/admin/login`, { method: "POST", headers: { ...form, ...from }, body: "email=a%40b.c&password=x" });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses.slice(0, 10).every((status) => status === 403)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429, 429]);
  });

  it("sends HSTS when the trusted proxy says the visitor came over HTTPS, not otherwise", async () => {
    const secure = await fetch(`${server.url}/offer/de`, { headers: { "X-Forwarded-Proto": "https" } });
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    const plain = await fetch(`${server.url}/offer/de`);
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });

  it("logs one JSON line per request with the route pattern and the request id, and nothing personal", async () => {
    const response = await fetch(`${server.url}/offer/de?email=anna.muster%40example.com&src=v2`, {
      headers: { "X-Request-Id": "limits-test-1", Cookie: "vn_order=order-secret-123", "X-Forwarded-For": "203.0.113.99" },
    });
    expect(response.headers.get("x-request-id")).toBe("limits-test-1");
    const generated = await fetch(`${server.url}/checkout/de.data?bundle=shape-3`);
    const generatedId = generated.headers.get("x-request-id") ?? "";
    expect(generatedId).toMatch(/^[0-9a-f-]{36}$/);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const lines = server
      .output()
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.id === "limits-test-1")).toEqual({
      time: expect.any(String),
      level: "info",
      msg: "request",
      method: "GET",
      route: "/offer/:locale",
      status: 200,
      ms: expect.any(Number),
      id: "limits-test-1",
    });
    expect(lines.find((line) => line.id === generatedId)).toMatchObject({ route: "/checkout/:locale.data", status: 200 });
    for (const personal of ["anna", "order-secret", "203.0.113.99", "email=", "Jonas", "jonas@example.com"]) expect(server.output()).not.toContain(personal);
  });
});

describe("slow clients", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: "warn" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("cuts off a client that trickles its headers, one that trickles its body, and one that sends nothing, within 20 s", { timeout: 40_000 }, async () => {
    const headers = "GET /offer/de HTTP/1.1\r\nHost: shop\r\nUser-Agent: slow\r\nAccept: text/html\r\n\r\n".split("");
    const body = "rating=5&comment=".padEnd(64, "x").split("");
    const [trickledHeaders, trickledBody, silent] = await Promise.all([
      rawRequest(server.url, headers, { everyMs: 2_000, timeoutMs: 30_000 }),
      rawRequest(server.url, [`POST /feedback/fr HTTP/1.1\r\nHost: shop\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n`, ...body], { everyMs: 2_000, timeoutMs: 30_000 }),
      rawRequest(server.url, [], { timeoutMs: 30_000 }),
    ]);
    for (const answer of [trickledHeaders, trickledBody, silent]) {
      expect(answer.closedAfterMs).not.toBeNull();
      expect(answer.closedAfterMs).toBeLessThan(20_000);
    }
    expect(trickledHeaders.status).toBe(408);
    expect(trickledBody.status).toBe(408);
    // The server still serves.
    expect((await fetch(`${server.url}/offer/de`)).status).toBe(200);
  });

  it("does not let a spoofed X-Forwarded-For escape the limit when no proxy is trusted", async () => {
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const response = await fetch(`${server.url}/refund/fr`, { method: "POST", headers: { ...form, "X-Forwarded-For": `192.0.2.${i}` }, body: "reason=x" });
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    // Twenty form posts a minute from this one address, whatever it claims to forward for.
    expect(statuses.filter((status) => status !== 429).length).toBeLessThanOrEqual(20);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
  });

  it("writes no request line below LOG_LEVEL=warn, and still says where it listens", () => {
    expect(server.output()).toContain("listening on http://");
    expect(server.output()).not.toContain('"msg":"request"');
  });
});

describe("settings", () => {
  it("sends HSTS on every answer when PUBLIC_URL is https", async () => {
    const server = await startServer({ PUBLIC_URL: "https://shop.example", LOG_LEVEL: "error" });
    try {
      const response = await fetch(`${server.url}/offer/de`);
      expect(response.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
    } finally {
      await server.stop();
    }
  });

  it.each([
    [{ TRUST_PROXY: "yes" }, "TRUST_PROXY must be a number of proxies (such as 1) or a comma-separated list of addresses or networks"],
    [{ TRUST_PROXY: "true" }, "got true (that would believe any client)"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL must be one of error, warn, info, debug, got 'loud'."],
    [{ WEB_CONCURRENCY: "many" }, "WEB_CONCURRENCY must be a whole number of worker processes from 1 to 64, got 'many'."],
  ])("refuses to start with %j, saying why", (env, message) => {
    const result = spawnSync(process.execPath, [serverEntry], { env: { ...process.env, PORT: "0", ...env }, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
