import { eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/database.server";
import { orderTouches, touchViews } from "./schema";
import { cookieValue, hasConsent } from "../platform/cookies";
import { directTouch, isDirect, referrerHostOf, touchCookieMaxAge, touchCookieName, touchCookieValue, touchOfCookieValue, touchOfRequest, type ClickIdKind, type Touch } from "./touch";

/**
 * The touch on the server (docs/decisions/0045-the-touch-of-a-visit.md): read from a request's
 * query and, with analytics consent, from the cookie that keeps the last touch that was not direct;
 * stored with the order placed; counted with the funnel's page views.
 */


/** The touch the cookie keeps, read only while the visitor's consent stands. */
export function keptTouch(cookieHeader: string | null): Touch | null {
  return hasConsent(cookieHeader) ? touchOfCookieValue(cookieValue(cookieHeader, touchCookieName)) : null;
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
 * the checkout is not where the visit landed), else the kept one, else direct. Without analytics
 * consent the click id is not kept with the order, only its kind: it names one person's click.
 */
export function touchOfCheckout(request: Request): Touch {
  const cookie = request.headers.get("Cookie");
  const touch = touchOfPage({ url: new URL(request.url), cookie }, false);
  return hasConsent(cookie) ? touch : { ...touch, clickId: null };
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
  if (!hasConsent(request.cookie)) return cookieValue(request.cookie, touchCookieName) !== null ? [`${touchCookieName}=`, "Max-Age=0", ...attributes].join("; ") : null;
  const named = namedTouch(request);
  const kept = keptTouch(request.cookie);
  if (isDirect(named) || (kept && sameTouch(kept, named))) return null;
  const value = fittingCookieValue(named);
  return value === null ? null : [`${touchCookieName}=${value}`, `Max-Age=${touchCookieMaxAge}`, ...attributes].join("; ");
}

/** Browsers drop a cookie over 4 KB whole; this leaves room for its name and attributes. */
export const maxTouchCookieBytes = 3000;

/** The touch's cookie value within the limit, without content and term if need be; null when even that is over. */
function fittingCookieValue(touch: Touch): string | null {
  for (const candidate of [touch, { ...touch, content: "", term: "" }]) {
    const value = touchCookieValue(candidate);
    if (value.length <= maxTouchCookieBytes) return value;
  }
  return null;
}

/**
 * The steps where a visit arrives, whose page may name a new touch. The checkout, upsells and the
 * thank-you page are reached from our own pages or back from a payment provider, whose address
 * would otherwise replace the touch that brought the buyer.
 */
const entrySteps: ReadonlySet<string> = new Set(["landing", "quiz", "summary", "offer"]);

/** Whether a page's address is one of the store's own: its public URL's origin, or the host the request was sent to. */
function isOwnPage(url: URL, headers: Headers, publicUrl: string): boolean {
  return url.origin === new URL(publicUrl).origin || (url.host !== "" && url.host === headers.get("Host"));
}

/**
 * A funnel page view, counted for its touch: the beacon's `Referer` is the page's own address (its
 * query carries the campaign), its body the referring site and the path the visit landed on. Answers the `Set-Cookie` to send, if any.
 * A `Referer` that is not one of our pages is not counted: anyone could post made-up touches.
 * Only an entry step may count a referrer or replace the kept touch: later steps are reached from
 * our own pages or back from a payment provider, whose site is not where the buyer came from.
 */
export async function receiveTouchView(db: Queryable, view: { day: string; step: string; market: string; referrer?: string; landingPath?: string }, headers: Headers, secure: boolean, publicUrl: string): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(headers.get("Referer") ?? "");
  } catch {
    return null;
  }
  if (!isOwnPage(url, headers, publicUrl)) return null;
  const cookie = headers.get("Cookie");
  const entry = entrySteps.has(view.step);
  const request: PageRequest = { url, cookie, referrer: entry && view.referrer ? `https://${view.referrer}/` : null, landingPath: view.landingPath ?? null };
  await countTouchView(db, view, touchOfPage(request));
  // A later step never replaces a kept touch; it may still keep the first one (consent is often
  // given at the checkout) and remove it once consent is withdrawn.
  return entry || !keptTouch(cookie) ? touchCookieFor(request, secure) : null;
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
 * at the ad platform; content and term too, which a campaign may have made per recipient. Source,
 * medium and campaign stay for the report.
 */
export async function eraseClickId(db: Queryable, orderId: string): Promise<void> {
  await db.update(orderTouches).set({ clickId: null, content: "", term: "" }).where(eq(orderTouches.orderId, orderId));
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
