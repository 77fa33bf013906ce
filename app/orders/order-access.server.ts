import { createCookie, type Cookie } from "react-router";

/**
 * After checkout the browser holds an HttpOnly cookie naming its order, signed with the store's
 * key, so it can see that order on the upsell and thank-you pages (DESIGN §10). No URL carries it.
 */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const orderCookieName = "vn_order";

export function createOrderCookie(signingKey: string, secure: boolean): Cookie {
  return createCookie(orderCookieName, {
    secrets: [signingKey],
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: 7 * 24 * 60 * 60,
  });
}

/** The order a request may see, if it carries a genuine cookie. */
export async function orderIdFromRequest(cookie: Cookie, cookieHeader: string | null): Promise<string | null> {
  const value: unknown = await cookie.parse(cookieHeader);
  return typeof value === "string" && uuidPattern.test(value) ? value : null;
}
