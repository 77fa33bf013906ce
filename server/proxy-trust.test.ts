import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import { clientKey, readProxyTrust, sendStrictTransportSecurity, strictTransportSecurity, type ProxyTrust } from "./proxy-trust";

describe("readProxyTrust", () => {
  it.each<[string | undefined, ProxyTrust]>([
    [undefined, false],
    ["", false],
    ["  ", false],
    ["0", false],
    ["false", false],
    ["1", 1],
    ["2", 2],
    ["10.0.0.7", ["10.0.0.7"]],
    ["10.0.0.0/8, 192.168.1.7", ["10.0.0.0/8", "192.168.1.7"]],
    ["loopback", ["loopback"]],
    ["loopback,linklocal,uniquelocal", ["loopback", "linklocal", "uniquelocal"]],
    ["10.0.0.0/255.0.0.0", ["10.0.0.0/255.0.0.0"]],
    ["::1", ["::1"]],
    ["fd00::/8,2001:db8::/32", ["fd00::/8", "2001:db8::/32"]],
    ["0.0.0.0/0", ["0.0.0.0/0"]],
  ])("reads %j", (value, expected) => {
    expect(readProxyTrust(value)).toEqual(expected);
  });

  it.each([
    ["true", "got true (that would believe any client)"],
    ["yes", "got 'yes'"],
    ["10.0.0.0/33", "got '10.0.0.0/33'"],
    ["::1/129", "got '::1/129'"],
    ["10.0.0.1, nginx", "got 'nginx'"],
    ["10.0.0.1,", "got ''"],
    ["1.5", "got '1.5'"],
    ["-1", "got '-1'"],
    ["10.0.0.0/8/8", "got '10.0.0.0/8/8'"],
    ["300.1.1.1", "got '300.1.1.1'"],
  ])("refuses %j, naming the variable and the forms", (value, shown) => {
    expect(() => readProxyTrust(value)).toThrow(/^TRUST_PROXY must be a number of proxies \(such as 1\) or a comma-separated list/);
    expect(() => readProxyTrust(value)).toThrow(shown);
  });

  it("refuses an absurd hop count", () => {
    expect(() => readProxyTrust("11")).toThrow("TRUST_PROXY must be");
  });
});

describe("clientKey", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["::ffff:203.0.113.9", "203.0.113.9"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::99", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    [undefined, "unknown"],
  ])("%s counts as %s", (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});

/** What Express makes of the forwarded headers under a `trust proxy` setting read from TRUST_PROXY. */
async function seenBy(trust: string, headers: Record<string, string>, publicUrlIsHttps = false) {
  const app = express();
  app.set("trust proxy", readProxyTrust(trust));
  app.use(sendStrictTransportSecurity(publicUrlIsHttps));
  app.get("/", (req, res) => {
    res.json({ ip: req.ip, protocol: req.protocol });
  });
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { headers });
    return { ...((await response.json()) as { ip: string; protocol: string }), hsts: response.headers.get("strict-transport-security") };
  } finally {
    server.close();
  }
}

describe("TRUST_PROXY with Express", () => {
  const forwarded = { "X-Forwarded-For": "198.51.100.1, 203.0.113.5", "X-Forwarded-Proto": "https" };

  it.each([
    ["", "127.0.0.1", "http", null],
    ["1", "203.0.113.5", "https", strictTransportSecurity],
    ["2", "198.51.100.1", "https", strictTransportSecurity],
    ["loopback", "203.0.113.5", "https", strictTransportSecurity],
    ["loopback, 203.0.113.5", "198.51.100.1", "https", strictTransportSecurity],
    ["10.0.0.0/8", "127.0.0.1", "http", null],
  ])("TRUST_PROXY=%j: the client is %s over %s", async (trust, ip, protocol, hsts) => {
    expect(await seenBy(trust, forwarded)).toEqual({ ip: expect.stringContaining(ip), protocol, hsts });
  });

  it("sends HSTS whenever PUBLIC_URL is https, and never believes an untrusted X-Forwarded-Proto", async () => {
    expect((await seenBy("", { "X-Forwarded-Proto": "https" }, true)).hsts).toBe("max-age=63072000; includeSubDomains");
    expect((await seenBy("", { "X-Forwarded-Proto": "https" }, false)).hsts).toBeNull();
  });
});
