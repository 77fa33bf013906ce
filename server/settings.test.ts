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
    expect(readServerSettings({})).toEqual({ trustProxy: false, logLevel: "info", webConcurrency: 1, publicUrlIsHttps: false });
  });

  it("reads every setting", () => {
    expect(readServerSettings({ TRUST_PROXY: "1", LOG_LEVEL: "WARN", WEB_CONCURRENCY: "3", DATABASE_URL: "postgres://db/x", PUBLIC_URL: "https://shop.example" })).toEqual({
      trustProxy: 1,
      logLevel: "warn",
      webConcurrency: 3,
      publicUrlIsHttps: true,
    });
  });

  it("names the variable of a bad log level", () => {
    expect(() => readServerSettings({ LOG_LEVEL: "verbose" })).toThrow("LOG_LEVEL must be one of error, warn, info, debug, got 'verbose'.");
  });
});
