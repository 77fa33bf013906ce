import { eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/database.server";
import { orderTouches, touchViews } from "./schema";
import { cookieValue, directTouch, isDirect, referrerHostOf, touchCookieMaxAge, touchCookieName, touchCookieValue, touchOfCookieValue, touchOfRequest, type ClickIdKind, type Touch } from "./touch";

/**
 * The touch on the server (docs/decisions/0045-the-touch-of-a-visit.md): read from a request's
 * query and, with analytics consent, from the cookie that keeps the last touch that was not direct;
 * stored with the order placed; counted with the funnel's page views.
 */

/** Set by the storefront when the visitor grants analytics consent (`app/analytics/consent-cookie.ts`). */
const consentCookieName = "vitanor_consent";

export const hasAnalyticsConsent = (cookieHeader: string | null): boolean => cookieValue(cookieHeader, consentCookieName) === "granted";

/** The touch the cookie keeps, read only while the visitor's consent stands. */
export function keptTouch(cookieHeader: string | null): Touch | null {
  return hasAnalyticsConsent(cookieHeader) ? touchOfCookieValue(cookieValue(cookieHeader, touchCookieName)) : null;
}

export interface PageRequest {
  /** The page's address, as the request or the beacon's `Referer` gives it. */
  url: URL;
  /** The `Cookie` header. */
  cookie: string | null;
  /** The site that linked to the visit, as the page saw it (`document.referrer`), or the `Referer` header. */
  referrer?: string | null;
  /** Where the visit landed, when the page knows it; else the page's own path. */
  landingPath?: string | null;
}

/**
 * The touch an order placed by this checkout request gets: the query's (without a landing path:
 * the checkout is not where the visit landed), else the kept one, else direct.
 */
export function touchOfCheckout(request: Request): Touch {
  return touchOfPage({ url: new URL(request.url), cookie: request.headers.get("Cookie") }, false);
}

/** Whether two touches name the same campaign and click (where each was seen aside). */
function sameTouch(a: Touch, b: Touch): boolean {
  return a.source === b.source && a.medium === b.medium && a.campaign === b.campaign && a.content === b.content && a.term === b.term && a.clickId === b.clickId;
}

/** What the page itself names: its query, else the referring site, with the page's path as where it landed. */
function namedTouch({ url, referrer = null, landingPath }: PageRequest): Touch {
  return touchOfRequest({ query: url.searchParams, referrerHost: referrerHostOf(referrer, url.host), landingPath: landingPath ?? url.pathname });
}

/**
 * The touch of a page request: what its query names (the funnel carries the query from page to
 * page, so the checkout still has the ad's), else the referring site, else the kept touch, else
 * direct. When the kept touch is the one the page names, the kept one wins: it knows where the
 * visit landed and which site linked to it.
 */
export function touchOfPage(request: PageRequest, landingPathKnown = true): Touch {
  const named = namedTouch(request);
  const kept = keptTouch(request.cookie);
  if (isDirect(named)) return kept ?? directTouch;
  if (kept && sameTouch(kept, named)) return kept;
  return landingPathKnown ? named : { ...named, landingPath: null };
}

/**
 * The `Set-Cookie` a page view answers with: the touch kept for 30 days when the visitor consents
 * and the page names one (the last one wins), the cookie removed when consent is gone; null
 * otherwise. Without consent nothing is written to the device.
 */
export function touchCookieFor(request: PageRequest, secure: boolean): string | null {
  const attributes = ["Path=/", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  if (!hasAnalyticsConsent(request.cookie)) return cookieValue(request.cookie, touchCookieName) !== null ? [`${touchCookieName}=`, "Max-Age=0", ...attributes].join("; ") : null;
  const named = namedTouch(request);
  const kept = keptTouch(request.cookie);
  if (isDirect(named) || (kept && sameTouch(kept, named))) return null;
  return [`${touchCookieName}=${touchCookieValue(named)}`, `Max-Age=${touchCookieMaxAge}`, ...attributes].join("; ");
}

/**
 * A funnel page view, counted for its touch: the beacon's `Referer` is the page's own address (its
 * query carries the campaign), its body the referring site and the path the visit landed on. Answers the `Set-Cookie` to send, if any.
 */
export async function receiveTouchView(db: Queryable, view: { day: string; step: string; market: string; referrer?: string; landingPath?: string }, headers: Headers, secure: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(headers.get("Referer") ?? "");
  } catch {
    return null;
  }
  const request: PageRequest = { url, cookie: headers.get("Cookie"), referrer: view.referrer ? `https://${view.referrer}/` : null, landingPath: view.landingPath ?? null };
  await countTouchView(db, view, touchOfPage(request));
  return touchCookieFor(request, secure);
}

/** Stores the touch of an order, in the transaction that places it. */
export async function storeOrderTouch(db: Queryable, orderId: string, touch: Touch): Promise<void> {
  await db
    .insert(orderTouches)
    .values({ orderId, ...touch })
    .onConflictDoNothing({ target: orderTouches.orderId });
}

/** The touch stored with an order, or null for an order placed before touches were kept. */
export async function touchOfOrder(db: Queryable, orderId: string): Promise<Touch | null> {
  const [row] = await db.select().from(orderTouches).where(eq(orderTouches.orderId, orderId));
  if (!row) return null;
  return {
    source: row.source,
    medium: row.medium,
    campaign: row.campaign,
    content: row.content,
    term: row.term,
    clickIdKind: row.clickIdKind as ClickIdKind | null,
    clickId: row.clickId,
    referrerHost: row.referrerHost,
    landingPath: row.landingPath,
  };
}

/**
 * Takes the click id off an erased buyer's order (GDPR Art. 17): it names one click of one person
 * at the ad platform. The rest of the touch (source, campaign) names no one and stays for the report.
 */
export async function eraseClickId(db: Queryable, orderId: string): Promise<void> {
  await db.update(orderTouches).set({ clickId: null }).where(eq(orderTouches.orderId, orderId));
}

/** One funnel page view more for its touch, atomically (as the funnel's own counts are). */
export async function countTouchView(db: Queryable, view: { day: string; step: string; market: string }, touch: Touch): Promise<void> {
  const key = { day: view.day, step: view.step, market: view.market, source: touch.source, medium: touch.medium, campaign: touch.campaign, content: touch.content };
  await db
    .insert(touchViews)
    .values({ ...key, views: 1 })
    .onConflictDoUpdate({
      target: [touchViews.day, touchViews.step, touchViews.market, touchViews.source, touchViews.medium, touchViews.campaign, touchViews.content],
      set: { views: sql`${touchViews.views} + 1` },
    });
}
