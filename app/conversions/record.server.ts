import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Queryable } from "../db/database.server";
import { cookieValue, hasConsent } from "../platform/cookies";
import { clientAddressHeader } from "../../server/client-address";
import type { ConversionSettings } from "./conversion-settings";
import { fbcOf, gaClientIdOf, newGaClientId } from "./payloads";
import { orderConversions, type OrderConversion } from "./schema";

/** What the checkout's request tells of the buyer's click and device, read only with their consent. */
export interface ConversionRequest {
  /** Meta's click id, from the visit's touch (the query the funnel carries, or the kept touch). */
  fbclid: string | null;
  /** Meta's `_fbc` cookie, when Meta's pixel wrote one. */
  fbcCookie: string | null;
  /** Google Analytics' `_ga` cookie. */
  gaCookie: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  /** The checkout page, origin and path only. */
  pageUrl: string;
}

/** The order just placed, as far as deciding what to keep for the ad platforms goes. */
export interface PlacedForConversions {
  /** Meta's click id, from the visit's touch. */
  fbclid: string | null;
  settings: ConversionSettings;
}

/**
 * The checkout's request as the conversions need it, or null when nothing is to be kept: the buyer
 * has not given marketing consent (the storefront's consent cookie, `platform/cookies.ts`, holds
 * `granted`) or no platform is configured. The address and user agent are
 * kept only for Meta, the one platform that takes them.
 */
export function conversionRequestOf(request: Request, placed: PlacedForConversions): ConversionRequest | null {
  const cookies = request.headers.get("Cookie");
  if (!hasConsent(cookies)) return null;
  if (!placed.settings.meta && !placed.settings.ga4) return null;
  const url = new URL(request.url);
  const forMeta = placed.settings.meta !== null;
  return {
    fbclid: placed.fbclid,
    fbcCookie: cookieValue(cookies, "_fbc") || null,
    gaCookie: cookieValue(cookies, "_ga") || null,
    clientAddress: (forMeta && request.headers.get(clientAddressHeader)?.slice(0, 64)) || null,
    userAgent: (forMeta && request.headers.get("User-Agent")?.slice(0, 512)) || null,
    pageUrl: `${url.origin}${url.pathname}`,
  };
}

/**
 * Keeps an order's consent to be reported to the ad platforms, with what they match it by. Once per
 * order: the same form sent again keeps the first record.
 */
export async function recordConversionConsent(db: Queryable, orderId: string, request: ConversionRequest, now = new Date()): Promise<void> {
  await db
    .insert(orderConversions)
    .values({
      orderId,
      fbc: fbcOf(request.fbclid, request.fbcCookie, now),
      gaClientId: gaClientIdOf(request.gaCookie) ?? newGaClientId(now),
      eventSourceUrl: request.pageUrl,
      clientAddress: request.clientAddress,
      clientUserAgent: request.userAgent,
    })
    .onConflictDoNothing({ target: orderConversions.orderId });
}

/** Meta takes no purchase older than seven days: past that, nothing kept for it has a use. */
export const deviceDataDays = 7;

/** Clears an order's client address and user agent, once they were sent or are never to be. */
export async function clearDeviceData(db: Queryable, orderId: string, now = new Date()): Promise<void> {
  await db
    .update(orderConversions)
    .set({ clientAddress: null, clientUserAgent: null, deviceDataClearedAt: now })
    .where(and(eq(orderConversions.orderId, orderId), isNull(orderConversions.deviceDataClearedAt)));
}

/** Clears what was kept for orders never paid, or whose purchase could not be sent within the days Meta takes it. */
export async function clearStaleDeviceData(db: Queryable, now = new Date()): Promise<void> {
  const before = new Date(now.getTime() - deviceDataDays * 24 * 60 * 60 * 1000);
  await db
    .update(orderConversions)
    .set({ clientAddress: null, clientUserAgent: null, deviceDataClearedAt: now })
    .where(and(isNull(orderConversions.deviceDataClearedAt), lt(orderConversions.createdAt, before)));
}

/** How often the store clears what outlived its seven days, whether or not orders come in. */
export const deviceDataSweepMs = 60 * 60_000;

/** Clears stale device data now and then every `intervalMs`; the returned function stops it. */
export function startDeviceDataSweep(db: Queryable, intervalMs = deviceDataSweepMs): () => void {
  const sweep = () => {
    clearStaleDeviceData(db).catch((error: unknown) => console.error(`Clearing stale device data failed: ${error instanceof Error ? error.message : String(error)}`));
  };
  sweep();
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Forgets what was kept for the ad platforms about these orders, when their buyer's data is erased:
 * a conversion not yet sent is then dropped, never sent with an erased address.
 */
export async function forgetOrderConversions(db: Queryable, orderIds: readonly string[]): Promise<void> {
  if (orderIds.length > 0) await db.delete(orderConversions).where(inArray(orderConversions.orderId, [...orderIds]));
}

/** What is kept for these orders, for the export of a buyer's data. */
export async function keptForOrders(db: Queryable, orderIds: readonly string[]): Promise<OrderConversion[]> {
  return orderIds.length > 0 ? db.select().from(orderConversions).where(inArray(orderConversions.orderId, [...orderIds])) : [];
}
