import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { checkHostAndTarget, isValidHost } from "./host-header";

describe("isValidHost", () => {
  it.each(["localhost", "localhost:3000", "shop.example.com", "shop.example.com.", "127.0.0.1:8080", "[::1]", "[::1]:3000", "[2001:db8::1]:443", "my_host", "xn--mnchen-3ya.de"])("accepts %s", (host) => {
    expect(isValidHost(host)).toBe(true);
  });

  it.each(["[::1", "a b", "shop:", "shop:99999", "shop:abc", "http://shop", "shop/x", "shop@evil", "[::::::]", "", "-shop", `${"a".repeat(64)}.com`, "shop..example"])("refuses %j", (host) => {
    expect(isValidHost(host)).toBe(false);
  });
});

async function ask(raw: string, trustProxy = false): Promise<string> {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(checkHostAndTarget);
  app.use((req, res) => {
    // What the app builds its request URL from: it must parse.
    const url = new URL(req.originalUrl, `${req.protocol}://${req.headers.host ?? "localhost"}`);
    res.send(`host ${req.hostname} ${url.protocol} secure=${String(req.secure)}`);
  });
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  const socket = connect((server.address() as AddressInfo).port, "127.0.0.1");
  let answer = "";
  socket.on("data", (chunk: Buffer) => (answer += chunk.toString()));
  socket.write(raw);
  await once(socket, "close");
  server.close();
  return answer;
}

describe("checkHostAndTarget", () => {
  it("takes an HTTP/1.0 request without a Host as asked of localhost", async () => {
    expect(await ask("GET /healthz HTTP/1.0\r\n\r\n")).toMatch(/^HTTP\/1\.1 200[\s\S]*host localhost http:/);
  });

  it.each([
    ["GET / HTTP/1.1\r\nHost: [::1\r\nConnection: close\r\n\r\n", "The Host header is not a host name."],
    ["GET // HTTP/1.1\r\nHost: shop\r\nConnection: close\r\n\r\n", "This address cannot be opened."],
    ["GET //evil.example/x HTTP/1.1\r\nHost: shop\r\nConnection: close\r\n\r\n", "This address cannot be opened."],
  ])("answers 400 to %j", async (raw, text) => {
    const answer = await ask(raw);
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect(answer).toContain(text);
  });

  it("checks X-Forwarded-Host only when a proxy is trusted", async () => {
    const raw = "GET / HTTP/1.1\r\nHost: shop\r\nX-Forwarded-Host: a b\r\nConnection: close\r\n\r\n";
    expect(await ask(raw, false)).toMatch(/^HTTP\/1\.1 200/);
    expect(await ask(raw, true)).toMatch(/^HTTP\/1\.1 400[\s\S]*X-Forwarded-Host/);
  });

  it.each([
    ["https", "https: secure=true"],
    ["HTTPS", "https: secure=true"],
    [" https , http", "https: secure=true"],
    ["http", "http: secure=false"],
    ["ht tp", "http: secure=false"],
    ["javascript", "http: secure=false"],
    ["ftp", "http: secure=false"],
    ["https:", "http: secure=false"],
    ["", "http: secure=false"],
    [",https", "http: secure=false"],
    ["h\u00e9ttps", "http: secure=false"],
  ])("takes only http and https from a trusted X-Forwarded-Proto %j (anything else is the socket's protocol)", async (proto, seen) => {
    const answer = await ask(`GET /checkout/fr HTTP/1.1\r\nHost: shop\r\nX-Forwarded-Proto: ${proto}\r\nConnection: close\r\n\r\n`, true);
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain(`host shop ${seen}`);
  });

  it("ignores X-Forwarded-Proto from an untrusted client", async () => {
    expect(await ask("GET / HTTP/1.1\r\nHost: shop\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n", false)).toContain("host shop http: secure=false");
  });
});
