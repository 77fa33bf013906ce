import { once } from "node:events";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isArmEntry } from "./arm-entry";
import { splitTests, type RouteExperiment } from "./split-tests";

/** What the server's step hands the app, and how it answers; the app's decisions have their own tests. */
describe("splitTests", () => {
  const asked: { method: string; pathname: string; search: string; geo: string; secure: boolean; cookie: string | undefined }[] = [];
  const route: RouteExperiment = async (request) => {
    asked.push({ method: request.method, pathname: request.pathname, search: request.search, geo: request.geoMarket(), secure: request.secure, cookie: request.header("cookie") });
    if (request.pathname === "/broken") throw new Error("the database is away");
    if (request.pathname !== "/offer" && request.pathname !== "/quiz") return null;
    const search = `${request.search}${request.search ? "&" : "?"}xp=abcdefgh.1`;
    // The quiz's other arm is a page the server does not keep.
    const armLocations = request.pathname === "/quiz" ? [`/quiz${search}`, `/checkout${search}`] : [`/offer${search}`, `/offer2${search}`];
    return { location: `/offer2${search}`, cookies: ["vitanor_xp=abcdefgh.1; Path=/"], armLocations };
  };
  let base = "";
  let server: ReturnType<express.Express["listen"]>;
  beforeAll(async () => {
    const app = express();
    // The server keeps an arm's page for a query with `src` only, and never the checkout.
    const servesInPlace = (location: string) => location.includes("src=") && !location.startsWith("/checkout");
    // The geo header is asked for by the name its provider writes, as the app's geoPageOf does.
    const geoPageOf = (pathname: string, header: (name: string) => string | undefined) => (pathname === "/offer" ? { route: "offer", geo: header("CF-IPCountry") ?? "DE", geoHeaders: ["CF-IPCountry"] } : undefined);
    app.use(splitTests(route, geoPageOf, true, servesInPlace));
    app.use((req, res) => {
      res.send(`reached ${req.method} ${req.path}${isArmEntry(res) ? ` as ${req.url} for ${req.originalUrl}` : ""}`);
    });
    server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.close();
  });

  it("answers an entry with the arm's page at the address asked for when the server keeps it, naming the arm's address", async () => {
    const response = await fetch(`${base}/offer?src=v%202&b=1`, { redirect: "manual", headers: { cookie: "vitanor_consent=granted", "cf-ipcountry": "FR" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("reached GET /offer2 as /offer2?src=v%202&b=1&xp=abcdefgh.1 for /offer?src=v%202&b=1");
    expect(response.headers.get("content-location")).toBe("/offer2?src=v%202&b=1&xp=abcdefgh.1");
    expect(response.headers.get("set-cookie")).toBe("vitanor_xp=abcdefgh.1; Path=/");
    expect(asked.at(-1)).toEqual({ method: "GET", pathname: "/offer", search: "?src=v%202&b=1", geo: "FR", secure: true, cookie: "vitanor_consent=granted" });
  });

  it("answers an entry with the app's redirect, its cookie and no-store when the server does not keep the arm's page", async () => {
    const response = await fetch(`${base}/offer?b=1`, { redirect: "manual", headers: { cookie: "vitanor_consent=granted" } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/offer2?b=1&xp=abcdefgh.1");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("set-cookie")).toBe("vitanor_xp=abcdefgh.1; Path=/");
    expect(response.headers.get("content-location")).toBeNull();
  });

  it("redirects every visitor of a test one of whose arms the server does not keep, whichever arm they get", async () => {
    const response = await fetch(`${base}/quiz?src=ad`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/offer2?src=ad&xp=abcdefgh.1");
  });

  it.each([
    ["GET", "/take", "reached GET /take"],
    ["GET", "/offer.data", "reached GET /offer.data"],
    ["GET", "/assets/app.js", "reached GET /assets/app.js"],
    ["POST", "/offer", "reached POST /offer"],
  ])("passes %s %s on", async (method, path, body) => {
    const response = await fetch(`${base}${path}`, { method, redirect: "manual" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
  });

  it("serves the page as usual when the app cannot look the tests up", async () => {
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (error: unknown) => errors.push(error);
    try {
      const response = await fetch(`${base}/broken`, { redirect: "manual" });
      expect(await response.text()).toBe("reached GET /broken");
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
  });
});
