import { describe, expect, it } from "vitest";
import { malformedTarget } from "./request-guard";

describe("malformedTarget", () => {
  it.each([
    ["/offer/fr", null],
    ["/offer?utm_source=a%20b", null],
    ["/%E2%82%AC", null],
    ["/offer/%E0%A4%A", 400],
    ["/%", 400],
    ["/offer/%00", 400],
    [`/${"a".repeat(300)}`, 414],
    [`/offer?x=${"a".repeat(3000)}`, 414],
  ])("%s", (url, status) => {
    expect(malformedTarget(url)?.status ?? null).toBe(status);
  });
});
