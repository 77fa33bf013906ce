import { randomBytes } from "node:crypto";
import { sign, verifySignature } from "../db/store-secret.server";

/**
 * The token a checkout form carries (DESIGN §10): made when the page is rendered, bound to the
 * bundle it sells, signed by the store. Sending the same form twice finds the same order; a token
 * the store did not make, or one for another bundle, is refused.
 */
const purpose = "checkout-form";
export const tokenLifetimeMs = 24 * 60 * 60 * 1000;

export function newCheckoutToken(key: string, bundleId: string, now = Date.now()): string {
  const body = `${randomBytes(16).toString("base64url")}.${now.toString(36)}.${bundleId}`;
  return `${body}.${sign(key, purpose, body)}`;
}

export type TokenCheck = "valid" | "forged" | "expired";

export function checkCheckoutToken(key: string, token: string, bundleId: string, now = Date.now()): TokenCheck {
  const parts = token.split(".");
  if (parts.length !== 4) return "forged";
  const [nonce = "", issued = "", bundle = "", signature = ""] = parts;
  const body = `${nonce}.${issued}.${bundle}`;
  if (!verifySignature(key, purpose, body, signature) || bundle !== bundleId) return "forged";
  const issuedAt = parseInt(issued, 36);
  if (!Number.isFinite(issuedAt) || now - issuedAt > tokenLifetimeMs || issuedAt - now > 60_000) return "expired";
  return "valid";
}
