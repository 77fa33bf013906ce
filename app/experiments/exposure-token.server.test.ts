import { describe, expect, it } from "vitest";
import { armOfQuery, assignedAtOf, carriedExposure, newExposureToken, readExposureToken } from "./exposure-token.server";

const signingKey = "the store's signing key in these tests";
const at = Date.parse("2026-11-20T10:11:12.345Z");

describe("an exposure token", () => {
  const token = newExposureToken(signingKey, "k3j9x2ab", 1, at);

  it("carries the assignment's time to the millisecond, in 36 characters a URL keeps as they are", () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{36}$/);
    expect(readExposureToken(signingKey, "k3j9x2ab", 1, token)?.toISOString()).toBe("2026-11-20T10:11:12.345Z");
    expect(assignedAtOf(token)?.getTime()).toBe(at);
  });

  it("is refused for another arm, another test, another key, or with a changed time", () => {
    expect(readExposureToken(signingKey, "k3j9x2ab", 0, token)).toBeNull();
    expect(readExposureToken(signingKey, "zzzzzzzz", 1, token)).toBeNull();
    expect(readExposureToken("another store's key", "k3j9x2ab", 1, token)).toBeNull();
    const redated = newExposureToken(signingKey, "k3j9x2ab", 1, at - 86_400_000).slice(0, 20) + token.slice(20);
    expect(readExposureToken(signingKey, "k3j9x2ab", 1, redated)).toBeNull();
    expect(readExposureToken(signingKey, "k3j9x2ab", 1, token.slice(0, 35))).toBeNull();
  });

  it("is another for every exposure, even at the same moment", () => {
    expect(new Set(Array.from({ length: 100 }, () => newExposureToken(signingKey, "k3j9x2ab", 1, at))).size).toBe(100);
  });
});

describe("what an order keeps of the checkout's xp", () => {
  it("keeps the arm and token only when the token is the store's", () => {
    const token = newExposureToken(signingKey, "k3j9x2ab", 1, at);
    expect(armOfQuery(signingKey, `k3j9x2ab.1.${token}`)).toEqual({ arm: "k3j9x2ab.1", token });
    expect(carriedExposure(signingKey, `k3j9x2ab.1.${token}`)).toEqual({ key: "k3j9x2ab", arm: 1, token, assignedAt: new Date(at) });
    // Pasted without its token, made up, or from a form that is no xp at all: no arm.
    for (const value of ["k3j9x2ab.1", `k3j9x2ab.1.${"A".repeat(36)}`, `k3j9x2ab.0.${token}`, "k3j9x2ab", "", null]) expect(armOfQuery(signingKey, value)).toBeNull();
  });
});
