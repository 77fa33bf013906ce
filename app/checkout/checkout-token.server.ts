import { randomBytes } from "node:crypto";
import { sign, verifySignature } from "../db/store-secret.server";

/**
 * The token a checkout form carries: made when the page is rendered, bound to the bundle it sells
 * and to the browser it was shown to, signed by the store. Sending the same form twice finds the
 * same order; a token the store did not make, one for another bundle, or a copy of the form posted
 * from another browser is refused (docs/decisions/0032-hardening-second-round.md).
 *
 * The browser is named by a random id in its own HttpOnly cookie, set when the checkout page is
 * shown: the id is in no page, so a copy of the form's HTML does not carry it. The page is never
 * cached (it is rendered per request, `no-store`, and sets that cookie).
 */
const purpose = "checkout-form";
export const tokenLifetimeMs = 24 * 60 * 60 * 1000;

export const checkoutBrowserCookieName = "vn_checkout";
const browserIdPattern = /^[A-Za-z0-9_-]{22}$/;

export function newBrowserId(): string {
  return randomBytes(16).toString("base64url");
}

/** The browser id of a request's cookie, or null when it has none (or not one of ours). */
export function browserIdOf(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator !== -1 && part.slice(0, separator).trim() === checkoutBrowserCookieName) {
      const value = part.slice(separator + 1).trim();
      return browserIdPattern.test(value) ? value : null;
    }
  }
  return null;
}

/** The cookie naming the browser for as long as a form token lives, on every path of the store. */
export function browserCookie(id: string, secure: boolean): string {
  return [`${checkoutBrowserCookieName}=${id}`, `Max-Age=${tokenLifetimeMs / 1000}`, "Path=/", "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])].join("; ");
}

export function newCheckoutToken(key: string, bundleId: string, browserId: string, now = Date.now()): string {
  const body = `${randomBytes(16).toString("base64url")}.${now.toString(36)}.${bundleId}`;
  return `${body}.${sign(key, purpose, `${body}.${browserId}`)}`;
}

export type TokenCheck = "valid" | "forged" | "expired";

/** `browserId` is the id of the posting browser's cookie: a token made for another browser is "forged". */
export function checkCheckoutToken(key: string, token: string, bundleId: string, browserId: string | null, now = Date.now()): TokenCheck {
  const parts = token.split(".");
  if (parts.length !== 4 || !browserId) return "forged";
  const [nonce = "", issued = "", bundle = "", signature = ""] = parts;
  const body = `${nonce}.${issued}.${bundle}`;
  if (!verifySignature(key, purpose, `${body}.${browserId}`, signature) || bundle !== bundleId) return "forged";
  const issuedAt = parseInt(issued, 36);
  if (!Number.isFinite(issuedAt) || now - issuedAt > tokenLifetimeMs || issuedAt - now > 60_000) return "expired";
  return "valid";
}
