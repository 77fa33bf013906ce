import { cookieValue } from "../platform/cookies";
import { isDirect, referrerHostOf, touchCookieName, touchOfCookieValue, touchOfRequest, type Touch } from "../attribution/touch";

/**
 * Everything that talks to Google Tag Manager, behind one small interface: components never
 * touch `window.dataLayer` or load the script themselves.
 */

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export type ConsentChoice = "granted" | "denied";

const consentSignals = ["ad_storage", "analytics_storage", "ad_user_data", "ad_personalization"] as const;

function dataLayer(): unknown[] {
  window.dataLayer ??= [];
  return window.dataLayer;
}

/** Google's `gtag()` queues its arguments object itself (not an array); consent commands need that form. */
function gtag(..._args: unknown[]): void {
  // eslint-disable-next-line prefer-rest-params -- the tag manager reads an Arguments object
  dataLayer().push(arguments);
}

function consentState(choice: ConsentChoice): Record<(typeof consentSignals)[number], ConsentChoice> {
  return Object.fromEntries(consentSignals.map((signal) => [signal, choice])) as Record<(typeof consentSignals)[number], ConsentChoice>;
}

/** Consent Mode v2 defaults, pushed before any tag: everything denied. */
export function pushConsentDefaults(): void {
  gtag("consent", "default", consentState("denied"));
}

export function pushConsentUpdate(choice: ConsentChoice): void {
  gtag("consent", "update", consentState(choice));
}

/** Loads the tag manager once, after `gtm.start` (decision 9). */
export function loadTagManager(gtmId: string): void {
  if (document.querySelector("script[data-tag-manager]")) return;
  dataLayer().push({ event: "gtm.js", "gtm.start": Date.now() });
  const script = document.createElement("script");
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtm.js?id=${encodeURIComponent(gtmId)}&l=dataLayer`;
  script.dataset.tagManager = "";
  document.head.appendChild(script);
}

/** Query parameters whose values could identify a person never reach the tag manager. */
const personalParameter = /mail|phone|tel|name|address|street|zip|postcode|birth|token|password/i;

function anonymisedPath(pathname: string, search: string): string {
  const query = new URLSearchParams(search);
  for (const [key, value] of [...query]) {
    if (personalParameter.test(key) || value.includes("@")) query.set(key, "redacted");
  }
  const rest = query.toString();
  return rest ? `${pathname}?${rest}` : pathname;
}

/**
 * The visit's touch as the page sees it (decision 45): its query, else the site that linked to it,
 * else the touch kept in the cookie (written only with consent), else direct.
 */
function pageTouch(search: string): Touch {
  const named = touchOfRequest({ query: search, referrerHost: referrerHostOf(document.referrer, location.host) });
  return isDirect(named) ? (touchOfCookieValue(cookieValue(document.cookie, touchCookieName)) ?? named) : named;
}

/** The page view after every navigation, the first page load included, with its touch's source and campaign. */
export function pushContentView(pathname: string, search: string, routeName: string): void {
  const touch = pageTouch(search);
  dataLayer().push({
    event: "content-view",
    "content-name": anonymisedPath(pathname, search),
    "content-view-name": routeName,
    "touch-source": touch.source,
    "touch-campaign": touch.campaign,
  });
}

/** A paid order as the thank-you page reports it to the tag manager. */
export interface PurchaseReport {
  orderNumber: string;
  /** The whole order, upsells and add-on included, in minor units. */
  totalMinor: number;
  currency: string;
}

/**
 * The purchase, once per thank-you page: the order number is GA4's `transaction_id` and Meta's
 * `event_id`, the ids the server reports the same purchase by, so that each platform counts it once
 * (docs/decisions/0046-server-side-conversions.md). Every market's currency has hundredths.
 */
export function pushPurchase({ orderNumber, totalMinor, currency }: PurchaseReport): void {
  // Google's advice: clear the previous e-commerce object before pushing a new one.
  dataLayer().push({ ecommerce: null });
  dataLayer().push({ event: "purchase", event_id: orderNumber, ecommerce: { transaction_id: orderNumber, value: totalMinor / 100, currency } });
}
