import { describe, expect, it } from "vitest";
import { browserCookie, browserIdOf, checkCheckoutToken, newBrowserId, newCheckoutToken, tokenLifetimeMs, type TokenCheck } from "./checkout-token.server";

const key = "the-store-signing-key";
const now = Date.parse("2026-11-23T12:00:00Z");
const browser = newBrowserId();
const token = newCheckoutToken(key, "shape-3", browser, now);

/** The token with the first character of its signature replaced by another one. */
const withChangedSignature = (() => {
  const at = token.lastIndexOf(".") + 1;
  return `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
})();

/** The token with its issue time moved, keeping the signature. */
const withChangedTime = (() => {
  const [nonce, , bundle, signature] = token.split(".");
  return [nonce, (now + 1000).toString(36), bundle, signature].join(".");
})();

describe("checkCheckoutToken", () => {
  it("makes a different token each time", () => {
    expect(newCheckoutToken(key, "shape-3", browser, now)).not.toBe(token);
  });

  it.each<[string, string, string, string, number, TokenCheck]>([
    ["the same key, bundle and time", key, token, "shape-3", now, "valid"],
    ["a minute later", key, token, "shape-3", now + 60_000, "valid"],
    ["at the end of its lifetime", key, token, "shape-3", now + tokenLifetimeMs, "valid"],
    ["just after its lifetime", key, token, "shape-3", now + tokenLifetimeMs + 1, "expired"],
    ["a little before it was made (clock skew)", key, token, "shape-3", now - 60_000, "valid"],
    ["well before it was made", key, token, "shape-3", now - 60_001, "expired"],
    ["another key", "another-key", token, "shape-3", now, "forged"],
    ["another bundle", key, token, "shape-6", now, "forged"],
    ["a changed character in the signature", key, withChangedSignature, "shape-3", now, "forged"],
    ["a changed issue time", key, withChangedTime, "shape-3", now, "forged"],
    ["no signature", key, token.slice(0, token.lastIndexOf(".")), "shape-3", now, "forged"],
    ["an extra part", key, `${token}.x`, "shape-3", now, "forged"],
    ["an empty string", key, "", "shape-3", now, "forged"],
    ["something that is not a token", key, "not-a-token", "shape-3", now, "forged"],
    ["four empty parts", key, "...", "shape-3", now, "forged"],
  ])("%s is %s", (_name, checkKey, checked, bundle, at, result) => {
    expect(checkCheckoutToken(checkKey, checked, bundle, browser, at)).toBe(result);
  });
});

describe("the browser a form was shown to", () => {
  it("is the only one whose post of the form counts: a copy sent from another browser, or from one without the cookie, is refused", () => {
    expect(checkCheckoutToken(key, token, "shape-3", browser, now)).toBe("valid");
    expect(checkCheckoutToken(key, token, "shape-3", newBrowserId(), now)).toBe("forged");
    expect(checkCheckoutToken(key, token, "shape-3", null, now)).toBe("forged");
  });

  it("is named by its own cookie, read back as it was set, and nothing else", () => {
    const cookie = browserCookie(browser, true);
    expect(cookie).toMatch(/^vn_checkout=[A-Za-z0-9_-]{22}; Max-Age=86400; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    expect(browserIdOf(`a=1; ${cookie.split(";")[0]}; b=2`)).toBe(browser);
    expect(browserIdOf("vn_checkout=short")).toBeNull();
    expect(browserIdOf(null)).toBeNull();
    expect(browserCookie(browser, false)).not.toContain("Secure");
  });
});
