import { createHash } from "node:crypto";

/**
 * What the store tells the ad platforms of a purchase, as each platform's API takes it: Meta's
 * Conversions API and Google Analytics' Measurement Protocol. Pure functions of the facts, so that
 * a test can read every payload; no payload carries a plain e-mail, name or address
 * (docs/decisions/0046-server-side-conversions.md).
 */

export interface PurchaseFacts {
  /** The order number: Meta's `event_id` and GA4's `transaction_id`, as the thank-you page's data layer has it. */
  orderNumber: string;
  email: string;
  currency: string;
  /** The whole order, add-on and accepted upsells included, in minor units. */
  totalMinor: number;
  lines: readonly { bundleId: string; productName: string; grossMinor: number }[];
  paidAt: Date;
  eventSourceUrl: string;
  fbc: string | null;
  clientAddress: string | null;
  clientUserAgent: string | null;
  gaClientId: string;
}

/** Minor units to the major units both platforms take (`89.7`, not `8970`). */
export function majorUnits(minor: number, currency: string): number {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return Number((minor / 10 ** digits).toFixed(digits));
}

/** Meta's normalisation of an e-mail before hashing: trimmed, lower case; then SHA-256 in hex. */
export function hashedEmail(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

const fbclidPattern = /^[A-Za-z0-9_-]{1,500}$/;
const fbcPattern = /^fb\.[0-2]\.\d{10,16}\.[A-Za-z0-9_-]{1,500}$/;

/**
 * Meta's click id parameter: the `_fbc` cookie as Meta's pixel wrote it, else `fb.1.<ms>.<fbclid>`
 * from the ad's `fbclid` (kept exactly as it came: Meta's id is case sensitive). Null for neither or
 * for a value of another shape.
 */
export function fbcOf(fbclid: string | null, fbcCookie: string | null, seenAt: Date): string | null {
  if (fbcCookie && fbcPattern.test(fbcCookie)) return fbcCookie;
  if (fbclid && fbclidPattern.test(fbclid)) return `fb.1.${seenAt.getTime()}.${fbclid}`;
  return null;
}

/** One `data` entry of Meta's events edge: a website `Purchase` Meta deduplicates with the browser's by `event_id`. */
export function metaPurchaseEvent(facts: PurchaseFacts) {
  return {
    event_name: "Purchase",
    event_time: Math.floor(facts.paidAt.getTime() / 1000),
    event_id: facts.orderNumber,
    action_source: "website",
    event_source_url: facts.eventSourceUrl,
    user_data: {
      em: [hashedEmail(facts.email)],
      ...(facts.fbc ? { fbc: facts.fbc } : {}),
      ...(facts.clientAddress ? { client_ip_address: facts.clientAddress } : {}),
      ...(facts.clientUserAgent ? { client_user_agent: facts.clientUserAgent } : {}),
    },
    custom_data: { value: majorUnits(facts.totalMinor, facts.currency), currency: facts.currency, order_id: facts.orderNumber },
  };
}


/** Shown under Test events in Meta's Events Manager, and counted nowhere else: the go-live check's and test orders' events carry it. */
export const metaTestEventCode = "TEST_STORE";

/** The body of a POST to the events edge; the token travels in the body, not in a URL a log could keep. */
export function metaEventsBody(events: readonly Record<string, unknown>[], accessToken: string, testEventCode?: string) {
  return { data: events, access_token: accessToken, ...(testEventCode ? { test_event_code: testEventCode } : {}) };
}

/**
 * The buyer's consent, as GA4 takes it with each request: the store asks one question, which grants
 * `ad_user_data` with everything else, and nothing is sent without it.
 */
const grantedConsent = { ad_user_data: "GRANTED", ad_personalization: "GRANTED" } as const;

/** A GA4 `purchase`: one item per order line (a bundle is sold as one item at its line's price). */
export function ga4PurchaseBody(facts: PurchaseFacts) {
  return {
    client_id: facts.gaClientId,
    timestamp_micros: facts.paidAt.getTime() * 1000,
    consent: grantedConsent,
    events: [
      {
        name: "purchase",
        params: {
          transaction_id: facts.orderNumber,
          value: majorUnits(facts.totalMinor, facts.currency),
          currency: facts.currency,
          items: facts.lines.map((line) => ({ item_id: line.bundleId, item_name: line.productName, price: majorUnits(line.grossMinor, facts.currency), quantity: 1 })),
        },
      },
    ],
  };
}

export interface RefundFacts {
  orderNumber: string;
  currency: string;
  refundedMinor: number;
  /** The purchase's client id: GA4 ties the refund to its purchase by `transaction_id`, and to the same visitor by this. */
  gaClientId: string;
}

/** A GA4 `refund` of the whole order (no items: the whole transaction). */
export function ga4RefundBody(facts: RefundFacts) {
  return {
    client_id: facts.gaClientId,
    consent: grantedConsent,
    events: [{ name: "refund", params: { transaction_id: facts.orderNumber, value: majorUnits(facts.refundedMinor, facts.currency), currency: facts.currency } }],
  };
}

/** A GA4 client id as gtag writes it: `<random>.<seconds>`. */
export function newGaClientId(now: Date): string {
  return `${Math.floor(Math.random() * 2_147_483_647)}.${Math.floor(now.getTime() / 1000)}`;
}

/** The client id inside a `_ga` cookie (`GA1.1.123456789.1700000000` → `123456789.1700000000`); null for another shape. */
export function gaClientIdOf(gaCookie: string | null): string | null {
  const match = gaCookie ? /^GA\d\.\d+\.(\d{1,20}\.\d{1,12})$/.exec(gaCookie) : null;
  return match?.[1] ?? null;
}
