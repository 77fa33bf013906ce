/**
 * The touch of a visit: where it came from (docs/decisions/0045-the-touch-of-a-visit.md). The
 * first request of a visit that carries a campaign (`utm_*`) or an ad platform's click id names it;
 * else the site that linked to it; else it is direct. Safe to run in the browser (the data layer
 * reads it for page views) and on the server (the checkout, the page-view beacon).
 *
 * Values come from anyone's URL, so nothing here throws: control characters are taken out, text
 * is cut to its length, and a click id that is not one is dropped.
 */

export const clickIdKinds = ["gclid", "gbraid", "wbraid", "fbclid", "ttclid", "msclkid"] as const;
export type ClickIdKind = (typeof clickIdKinds)[number];

export interface Touch {
  /** `utm_source`, else the click id's platform, else the referring host, else `direct`. */
  source: string;
  /** `utm_medium`, else `paid` for a click id, `referral` for a referring site, `none` when direct. */
  medium: string;
  campaign: string;
  content: string;
  term: string;
  clickIdKind: ClickIdKind | null;
  clickId: string | null;
  /** The host of the site that linked to the visit (never ours). */
  referrerHost: string | null;
  /** The path the visit arrived on, when known. */
  landingPath: string | null;
}

export const directTouch: Touch = {
  source: "direct",
  medium: "none",
  campaign: "",
  content: "",
  term: "",
  clickIdKind: null,
  clickId: null,
  referrerHost: null,
  landingPath: null,
};

/** How much of each value is kept; ad platforms' own limits are around these. */
export const touchLimits = { text: 100, clickId: 500, host: 253, path: 200 } as const;

const utmFields = { source: "utm_source", medium: "utm_medium", campaign: "utm_campaign", content: "utm_content", term: "utm_term" } as const;

/** The platform a click id comes from, the touch's source when the URL names none. */
const platformOfClickId: Record<ClickIdKind, string> = {
  gclid: "google",
  gbraid: "google",
  wbraid: "google",
  fbclid: "facebook",
  ttclid: "tiktok",
  msclkid: "microsoft",
};

// eslint-disable-next-line no-control-regex -- control characters are exactly what is taken out
const controlCharacters = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/g;
/** Click ids are URL-safe tokens; anything else is not a click id, and half of one is useless. */
const clickIdPattern = /^[A-Za-z0-9._~-]+$/;
const hostPattern = /^[a-z0-9.-]+$/;

/**
 * A text value without control characters, trimmed, cut to `limit` characters (whole code points).
 * A value with `@` is blanked: campaigns tagged with a recipient's e-mail address would otherwise
 * carry it to the tag manager, the cookie and the stored counts.
 */
export function cleanText(value: string | null | undefined, limit: number = touchLimits.text): string {
  if (!value || value.includes("@")) return "";
  return [...value.replace(controlCharacters, "").trim()].slice(0, limit).join("").trim();
}

/** A click id as sent, or null when it is missing, over-long or not a token. */
export function cleanClickId(value: string | null | undefined): string | null {
  const id = (value ?? "").trim();
  return id !== "" && id.length <= touchLimits.clickId && clickIdPattern.test(id) ? id : null;
}

/** A host name in lower case without `www.`, or null when it is not one. */
export function cleanHost(value: string | null | undefined): string | null {
  const host = (value ?? "").trim().toLowerCase().replace(/^www\./, "");
  return host !== "" && host.length <= touchLimits.host && hostPattern.test(host) && host.includes(".") ? host : null;
}

/** A path as the visit arrived on it (no query), or null. */
export function cleanPath(value: string | null | undefined): string | null {
  const path = cleanText(value, touchLimits.path);
  return path.startsWith("/") ? path : null;
}

/** The host of a referring URL when it is another site than ours, else null. */
export function referrerHostOf(referrer: string | null | undefined, ownHost: string | null): string | null {
  if (!referrer) return null;
  let host: string | null;
  try {
    host = cleanHost(new URL(referrer).hostname);
  } catch {
    return null;
  }
  return host && host !== cleanHost(ownHost?.replace(/:\d+$/, "")) ? host : null;
}

function firstClickId(query: URLSearchParams): { kind: ClickIdKind; id: string } | null {
  for (const kind of clickIdKinds) {
    const id = cleanClickId(query.get(kind));
    if (id) return { kind, id };
  }
  return null;
}

export interface VisitRequest {
  /** The page's query. */
  query: URLSearchParams | string;
  /** The referring site's host, already checked to be another site's (see `referrerHostOf`). */
  referrerHost?: string | null;
  landingPath?: string | null;
}

/** The touch a request names: its campaign or click id, else the referring site, else direct. */
export function touchOfRequest({ query, referrerHost = null, landingPath = null }: VisitRequest): Touch {
  const params = typeof query === "string" ? new URLSearchParams(query) : query;
  const utm = Object.fromEntries(Object.entries(utmFields).map(([field, name]) => [field, cleanText(params.get(name))])) as Record<keyof typeof utmFields, string>;
  const click = firstClickId(params);
  const referrer = cleanHost(referrerHost);
  const path = cleanPath(landingPath);
  if (Object.values(utm).some((value) => value !== "") || click) {
    return {
      source: utm.source || (click ? platformOfClickId[click.kind] : null) || referrer || "unknown",
      medium: utm.medium || (click ? "paid" : referrer ? "referral" : "unknown"),
      campaign: utm.campaign,
      content: utm.content,
      term: utm.term,
      clickIdKind: click?.kind ?? null,
      clickId: click?.id ?? null,
      referrerHost: referrer,
      landingPath: path,
    };
  }
  if (referrer) return { ...directTouch, source: referrer, medium: "referral", referrerHost: referrer, landingPath: path };
  return { ...directTouch, landingPath: path };
}

export const isDirect = (touch: Touch): boolean => touch.source === "direct" && touch.medium === "none" && !touch.clickId && !touch.referrerHost;

/**
 * The cookie that keeps the last touch that was not direct, for 30 days, and only with analytics
 * consent. It holds the touch and nothing about the person; the page reads it too, to give the
 * data layer's page views their source and campaign when the visitor came back directly.
 */
export const touchCookieName = "vitanor_touch";
export const touchCookieMaxAge = 30 * 86_400;

const cookieKeys = { source: "s", medium: "m", campaign: "c", content: "n", term: "t", clickIdKind: "k", clickId: "i", referrerHost: "r", landingPath: "l" } as const satisfies Record<keyof Touch, string>;

/** The touch as a cookie's value (form-encoded once, so it holds no `;`, `,` or space). */
export function touchCookieValue(touch: Touch): string {
  const params = new URLSearchParams();
  for (const [field, key] of Object.entries(cookieKeys)) {
    const value = touch[field as keyof Touch];
    if (value) params.set(key, value);
  }
  return params.toString();
}

/** The touch a cookie's value holds, cleaned as any request's values are, or null when it holds none. */
export function touchOfCookieValue(value: string | null | undefined): Touch | null {
  if (!value) return null;
  let params: URLSearchParams;
  try {
    // Cookies written before the value was encoded once hold no `=` of their own.
    params = new URLSearchParams(value.includes("=") ? value : decodeURIComponent(value));
  } catch {
    return null;
  }
  const kind = params.get(cookieKeys.clickIdKind);
  const clickIdKind = (clickIdKinds as readonly string[]).includes(kind ?? "") ? (kind as ClickIdKind) : null;
  const clickId = clickIdKind ? cleanClickId(params.get(cookieKeys.clickId)) : null;
  const touch: Touch = {
    source: cleanText(params.get(cookieKeys.source)),
    medium: cleanText(params.get(cookieKeys.medium)),
    campaign: cleanText(params.get(cookieKeys.campaign)),
    content: cleanText(params.get(cookieKeys.content)),
    term: cleanText(params.get(cookieKeys.term)),
    clickIdKind: clickId ? clickIdKind : null,
    clickId,
    referrerHost: cleanHost(params.get(cookieKeys.referrerHost)),
    landingPath: cleanPath(params.get(cookieKeys.landingPath)),
  };
  return touch.source === "" || isDirect(touch) ? null : touch;
}
