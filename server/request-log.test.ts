import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { createLogger, logRequests, readLogLevel, requestIdOf } from "./request-log";

describe("readLogLevel", () => {
  it.each([
    [undefined, "info"],
    ["", "info"],
    ["error", "error"],
    ["WARN", "warn"],
    ["debug", "debug"],
  ])("%j is %s", (value, level) => {
    expect(readLogLevel(value)).toBe(level);
  });

  it("names the variable and the levels", () => {
    expect(() => readLogLevel("trace")).toThrow("LOG_LEVEL must be one of error, warn, info, debug, got 'trace'.");
  });
});

describe("createLogger", () => {
  it("writes one JSON object per line, at its level and the more severe ones only", () => {
    const lines: string[] = [];
    const logger = createLogger("warn", (line) => lines.push(line));
    logger.debug("d");
    logger.info("i");
    logger.warn("w", { n: 1 });
    logger.error("e");
    expect(lines).toHaveLength(2);
    expect(lines.every((line) => line.endsWith("\n") && !line.slice(0, -1).includes("\n"))).toBe(true);
    expect(JSON.parse(lines[0] ?? "")).toEqual({ time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), level: "warn", msg: "w", n: 1 });
  });
});

describe("requestIdOf", () => {
  it.each(["abc-123", "3f1c9d2e-1111-4a4a-9b9b-0123456789ab", "req_1.2:3"])("keeps a sane incoming id %s", (id) => {
    expect(requestIdOf(id)).toBe(id);
  });

  it.each([undefined, "", "a b", "<script>", "x".repeat(101), "-leading", "é", "a\nb"])("replaces %j with a new UUID", (id) => {
    expect(requestIdOf(id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("replaces a repeated header", () => {
    expect(requestIdOf(["a", "b"])).not.toBe("a");
  });
});

describe("logRequests", () => {
  async function logged(path: string, init: RequestInit = {}, level: "info" | "warn" = "info", status = 200) {
    const lines: string[] = [];
    const app = express();
    app.use(logRequests(createLogger(level, (line) => lines.push(line)), (pathname) => (pathname.startsWith("/checkout/") ? "/checkout/:locale" : "*")));
    app.use((_req, res) => {
      res.status(status).send("answer");
    });
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, init);
    await response.text();
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.close();
    return { lines, response };
  }

  it("writes method, route pattern, status, duration and request id, and nothing of the person", async () => {
    const { lines, response } = await logged("/checkout/fr?email=anna.muster%40example.com&bundle=shape-3", {
      method: "POST",
      headers: { Cookie: "vn_order=secret-order-token", "X-Forwarded-For": "203.0.113.7", "User-Agent": "Mozilla/5.0 Anna" },
      body: "email=anna.muster%40example.com&givenName=Anna",
    });
    expect(lines).toHaveLength(1);
    const line = lines[0] ?? "";
    const entry = JSON.parse(line) as Record<string, unknown>;
    expect(entry).toEqual({
      time: expect.any(String),
      level: "info",
      msg: "request",
      method: "POST",
      route: "/checkout/:locale",
      status: 200,
      ms: expect.any(Number),
      id: response.headers.get("x-request-id"),
    });
    for (const secret of ["anna", "example.com", "secret-order-token", "203.0.113.7", "Mozilla", "?", "shape-3", "/checkout/fr"]) expect(line).not.toContain(secret);
  });

  it("keeps a proxy's request id and sends it back", async () => {
    const { lines, response } = await logged("/checkout/de", { headers: { "X-Request-Id": "edge-42" } });
    expect(response.headers.get("x-request-id")).toBe("edge-42");
    expect(JSON.parse(lines[0] ?? "{}")).toMatchObject({ id: "edge-42" });
  });

  it("logs a server error at level error, and nothing below LOG_LEVEL", async () => {
    expect(JSON.parse((await logged("/x", {}, "info", 500)).lines[0] ?? "{}")).toMatchObject({ level: "error", status: 500, route: "*" });
    expect((await logged("/x", {}, "warn", 404)).lines).toEqual([]);
    expect((await logged("/x", {}, "warn", 503)).lines).toHaveLength(1);
  });
});
