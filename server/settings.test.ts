import { describe, expect, it } from "vitest";
import { readServerSettings, readWebConcurrency } from "./settings";

describe("readWebConcurrency", () => {
  it.each<[string | undefined, string | undefined, number]>([
    [undefined, undefined, 1],
    ["", undefined, 1],
    ["1", undefined, 1],
    ["4", "postgres://db/store", 4],
  ])("WEB_CONCURRENCY=%j with DATABASE_URL=%j gives %i", (value, url, count) => {
    expect(readWebConcurrency(value, url)).toBe(count);
  });

  it.each(["0", "-2", "two", "1.5", "65"])("refuses %j, naming the variable", (value) => {
    expect(() => readWebConcurrency(value, "postgres://db/store")).toThrow(`WEB_CONCURRENCY must be a whole number of worker processes from 1 to 64, got '${value}'.`);
  });

  it("refuses more than one process on the embedded database, saying what to do", () => {
    expect(() => readWebConcurrency("2", undefined)).toThrow(
      "WEB_CONCURRENCY=2 would start 2 server processes, but the embedded database (used while DATABASE_URL is not set) allows only one. Set DATABASE_URL to a PostgreSQL server, or leave WEB_CONCURRENCY unset.",
    );
  });
});

describe("readServerSettings", () => {
  it("defaults to trusting no proxy, logging at info, one process", () => {
    expect(readServerSettings({})).toEqual({ port: 3000, host: undefined, trustProxy: false, logLevel: "info", webConcurrency: 1, publicUrlIsHttps: false, pageCacheBytes: 64 * 1024 * 1024, mode: undefined });
  });

  it("reads every setting", () => {
    expect(
      readServerSettings({ PORT: "8080", HOST: "127.0.0.1", TRUST_PROXY: "1", LOG_LEVEL: "WARN", WEB_CONCURRENCY: "3", DATABASE_URL: "postgres://db/x", PUBLIC_URL: "https://shop.example", PAGE_CACHE_MB: "0.5", NODE_ENV: "production" }),
    ).toEqual({
      port: 8080,
      host: "127.0.0.1",
      trustProxy: 1,
      logLevel: "warn",
      webConcurrency: 3,
      publicUrlIsHttps: true,
      pageCacheBytes: 512 * 1024,
      mode: "production",
    });
  });

  it("names the variable of a bad log level", () => {
    expect(() => readServerSettings({ LOG_LEVEL: "verbose" })).toThrow("LOG_LEVEL must be one of error, warn, info, debug, got 'verbose'.");
  });

  it("reads PAGE_CACHE_MB, 64 by default, 0 for no cache", () => {
    expect(readServerSettings({ PAGE_CACHE_MB: "0" }).pageCacheBytes).toBe(0);
    expect(() => readServerSettings({ PAGE_CACHE_MB: "lots" })).toThrow("PAGE_CACHE_MB must be a number of megabytes (0 or more), got 'lots'.");
    expect(() => readServerSettings({ PAGE_CACHE_MB: "-1" })).toThrow("PAGE_CACHE_MB");
  });

  it.each(["-1", "65536", "http"])("refuses PORT=%j, naming the variable", (value) => {
    expect(() => readServerSettings({ PORT: value })).toThrow(`PORT must be a whole number from 0 to 65535, got '${value}'.`);
  });

  it("names every bad variable at once, one per line", () => {
    expect(() => readServerSettings({ PORT: "http", LOG_LEVEL: "verbose" })).toThrow(/PORT[^\n]*\nLOG_LEVEL/);
  });
});
