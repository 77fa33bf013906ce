import { createCookie, type Cookie } from "react-router";
import { reachedOverHttps } from "../platform/https-request";

/**
 * After checkout the browser holds an HttpOnly cookie naming its order, signed with the store's
 * key, so it can see that order on the upsell and thank-you pages (decisions 12 and 42). No URL carries it.
 */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const orderCookieName = "vn_order";

/** The cookie's name, key and lifetime; whether it is `Secure` is decided per response. */
export function createOrderCookie(signingKey: string): Cookie {
  return createCookie(orderCookieName, {
    secrets: [signingKey],
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 7 * 24 * 60 * 60,
  });
}

/** The `Set-Cookie` value giving this browser its order: `Secure` when the request came over HTTPS. */
export function orderCookieHeader(cookie: Cookie, orderId: string, request: Request, publicUrl: string): Promise<string> {
  return cookie.serialize(orderId, { secure: reachedOverHttps(request, publicUrl) });
}

/** The order a request may see, if it carries a genuine cookie. */
export async function orderIdFromRequest(cookie: Cookie, cookieHeader: string | null): Promise<string | null> {
  const value: unknown = await cookie.parse(cookieHeader);
  return typeof value === "string" && uuidPattern.test(value) ? value : null;
}
