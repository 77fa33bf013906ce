import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/database.server";
import { downloadToken } from "../../app/downloads/links.server";
import { upsells } from "../../app/funnel/content.server";
import { marketForCountryCode, markets } from "../../app/market/markets";
import { standardDeliveryMinor } from "../../app/orders/commerce-content.server";
import { quoteLine } from "../../app/orders/quote.server";
import { addOperator } from "./support/back-office";
import { placeOrder, type PlacedOrder } from "./support/orders-over-http";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";
import { rawRequest } from "./support/raw-http";
import { startServer, type RunningServer } from "./support/server";

/**
 * Bad input, at volume: a bounded, deterministic (seeded) stream of malformed requests against one
 * production server — random paths, methods, headers and encodings, bodies of every kind to every
 * route that takes posts, truncated and oversized bodies, broken HTTP over raw sockets, and a few
 * clients that trickle. Nothing may answer 5xx (but a deliberate 503), no answer may carry a stack
 * trace, the server must still serve afterwards and stop cleanly, and the database must hold
 * exactly what the few valid requests among them added.
 *
 * The posts come from thousands of addresses through a trusted local proxy (TRUST_PROXY), so that
 * the routes' own validation sees them rather than the rate limit; one address hammers on its own
 * and meets the limit. Being trusted, the proxy's other headers (`X-Forwarded-Proto`, `-Host`,
 * `-Port`, `Forwarded`) carry junk too. An operator's session opens every back-office list at odd
 * page numbers, and the buyer's order, its upsells still on offer, is posted as accepted on every
 * upsell step of every other market: its total may only ever grow by a price of its own market.
 * The order's ebook link (and forged or altered ones) is asked with odd `Range` headers,
 * uploads and split-test changes are posted without a session or from another origin, and the
 * running split test's entry is asked with odd `xp` values.
 * It runs on PGlite and, when TEST_DATABASE_URL is set, on PostgreSQL, with fewer requests each then
 * so that the file takes about as long. `FUZZ_SEED` and `FUZZ_REQUESTS` change the stream.
 */

const operatorPassword = "fuzz operator password";
const seed = Number(process.env.FUZZ_SEED ?? 0x5eed_2026);
const requestCount = Number(process.env.FUZZ_REQUESTS ?? (databaseKinds.length > 1 ? 6_000 : 10_500));
const lanes = 12;

/** mulberry32: small, fast, and the same stream for the same seed everywhere. */
function prng(start: number) {
  let state = start >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  const chance = (p: number) => next() < p;
  const bytes = (length: number) => Buffer.from(Array.from({ length }, () => int(256)));
  const text = (length: number, alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~%+&=;,/?#[]@!$'()* äöüéèß€中文😀\"<>\\") => {
    const characters = Array.from(alphabet);
    return Array.from({ length }, () => characters[int(characters.length)] ?? "").join("");
  };
  return { next, int, pick, chance, bytes, text };
}

type Probe =
  | { kind: "fetch"; label: string; method: string; path: string; headers: Record<string, string>; body?: Buffer | string; valid?: "feedback" | "beacon"; upsell?: boolean }
  | { kind: "raw"; label: string; writes: (string | Buffer)[]; end: boolean };

/** Every route that takes a post (the storefront's and the back office's), and some that do not. */
const postRoutes = [
  "/checkout",
  "/checkout/de?bundle=shape-3",
  "/checkout/fr.data?bundle=shape-1",
  "/checkout/ch-fr?bundle=nothing",
  "/upsell/de",
  "/upsell/fr.data",
  "/upsellMind/de",
  "/upsellfat/it",
  "/collagen-upsell/de",
  "/detolex-upsell/se",
  "/withdraw",
  "/withdraw/de",
  "/withdraw/fr.data",
  "/refund/fr",
  "/refund",
  "/feedback/de",
  "/feedback.data",
  "/funnel-view",
  "/welcome-code",
  "/webhooks/stripe",
  "/webhooks/paypal",
  "/webhooks/test",
  "/webhooks/%00",
  "/test-gateway/authenticate/none",
  "/test-gateway/bank/ch_000",
  "/checkout-return/abc",
  "/admin/login",
  "/admin/logout",
  "/admin/fulfilment",
  "/admin/orders/VN-2345-6789/refund",
  "/admin/privacy/erase",
  "/admin/reviews/0b9f2a52-7d1e-4c1a-9d55-3f1e2a6b7c8d",
  "/review/de?invitation=0b9f2a52-7d1e-4c1a-9d55-3f1e2a6b7c8d.AAAA",
  "/review",
  "/review-policy/fr",
  "/offer/de",
  "/",
  "/no-such-page",
] as const;

const pagePaths = ["/", "/de", "/offer", "/offer/fr", "/offer/FR", "/take/ch-fr", "/checkout/de", "/upsell/de", "/thankyou/fr", "/summary/at", "/v1/es", "/legal-texts/de", "/builds/latest.json", "/assets/none.js", "/admin", "/admin/orders", "/healthz", "/favicon.ico", "/storefront-settings", "/funnel-view", "/welcome-code", "/webhooks/stripe", "/paypal-confirm/upsell", "/reviews/de/shape", "/reviews/fr", "/review/it", "/review-policy/de"];

const formFields = ["email", "givenName", "familyName", "addressLine1", "postalCode", "city", "country", "method", "cardNumber", "cardExpiry", "cardCvc", "bundle", "token", "intent", "digitalConsent", "rating", "comment", "name", "orderNumber", "reason", "message", "step", "market", "src", "password", "next", "order", "line", "amount", "note", "confirmEmail", "invitation", "body", "decision", "_data", "__proto__", "constructor"];

/** Values of fields that keep every form invalid: no valid rating, e-mail, intent or step is ever among them. */
const badValues = ["", " ", "0", "6", "-1", "1e3", "NaN", "x".repeat(300), "not-an-email", "a@", "@b.c", "VN-0000-0000", "acceptt", "Decline", "DROP TABLE orders;--", "' OR 1=1 --", "<script>alert(1)</script>", "${7*7}", "{{7*7}}", "../../etc/passwd", "%00", "\u0000", "\uFFFF", "😀😀😀", "中文", "true", "null", "[]", "{}", "offerr", "XX"];

function formBody(r: ReturnType<typeof prng>, token: string): string {
  const parts: string[] = [];
  const fieldCount = r.int(12);
  for (let i = 0; i < fieldCount; i++) {
    const field = r.chance(0.85) ? r.pick(formFields) : r.text(r.int(20));
    const value = r.chance(0.1) ? token : r.pick(badValues);
    const encode = r.chance(0.8) ? encodeURIComponent : (v: string) => v;
    parts.push(r.chance(0.1) ? encode(field) : `${encode(field)}=${encode(value)}`);
  }
  // A form posted with a real checkout token still fails: its e-mail address is never valid.
  if (parts.some((part) => part.includes(encodeURIComponent(token)))) parts.push(`email=${encodeURIComponent(r.pick(["not-an-email", "", "a@b"]))}`);
  if (r.chance(0.1)) parts.push(r.pick(["%zz", "%", "%E0%A4%A", "a=%ff%fe", "&&&", "===", "+++", "a[]=1&a[]=2", "rating=9&rating=0"]));
  return parts.join("&");
}

function multipartBody(r: ReturnType<typeof prng>): { body: string; type: string } {
  const boundary = `----fuzz${r.int(1e9)}`;
  const fields = Array.from({ length: r.int(5) }, () => `--${boundary}\r\nContent-Disposition: form-data; name="${r.pick(formFields)}"\r\n\r\n${r.pick(badValues)}\r\n`).join("");
  const broken = r.chance(0.4);
  return {
    body: broken ? `${fields}--${r.chance(0.5) ? "wrong" : boundary}` : `${fields}--${boundary}--\r\n`,
    type: r.chance(0.2) ? "multipart/form-data" : `multipart/form-data; boundary=${r.chance(0.1) ? "" : boundary}`,
  };
}

function jsonBody(r: ReturnType<typeof prng>): string {
  return r.pick([
    JSON.stringify({ rating: 9, email: "x" }),
    JSON.stringify({ id: "evt_1", type: "payment_intent.succeeded", data: { object: { id: "pi_1" } } }),
    JSON.stringify({ event_type: "PAYMENT.CAPTURE.COMPLETED", resource: {} }),
    '{"a":',
    "[1,2,3",
    "null",
    JSON.stringify({ __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } }),
    `"${"a".repeat(1000)}"`,
  ]);
}

interface Context {
  origin: string;
  token: string;
  /** The cookie the checkout page set with the token: the token counts only with it. */
  checkoutCookie: string;
  order: PlacedOrder;
  orderMarket: string;
  /** An operator's session (`vitanor_admin=…`), for the lists and posts that change nothing only. */
  adminCookie: string;
  /** Download tokens the store signed: the order's ebook link's, and one of a link it does not have. */
  downloadTokens: string[];
  /** The running split test of `/offer`, and an `xp` its redirect gave. */
  experimentKey: string;
  xp: string;
}

const contentTypes = ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded; charset=utf-16", "text/plain", "application/json", "application/octet-stream", "", "multipart/mixed", "application/x-www-form-urlencoded;;;", "x".repeat(500)];
const encodings = ["gzip, br", "br", "*", "identity;q=0", "br;q=0, gzip;q=0", "gzip;q=abc", "br;q=1.5", "deflate", ",,,", "x".repeat(2000), "gzip;q=0.5, br;q=0.9, zstd"];
const geoHeaders = ["CF-IPCountry", "X-Vercel-IP-Country", "CloudFront-Viewer-Country", "X-Country-Code"];

/** What a (trusted) proxy's headers may say that no proxy would: only `http` and `https` are protocols. */
const forwardedJunk: Record<string, readonly string[]> = {
  "X-Forwarded-Proto": ["ht tp", "gopher", "https:", "HTTPS", "", ",https", "https, http", "javascript", "h\u00e9ttps", "x".repeat(300), "http://evil.example", "1"],
  "X-Forwarded-Host": ["evil.example", "a b", "[::1", "shop:99999", "x".repeat(300), "shop, evil.example", "", "\u00e9vil.example"],
  "X-Forwarded-Port": ["-1", "99999", "abc", "443", ""],
  Forwarded: ["for=1.2.3.4;proto=ht tp;host=evil", "proto=https", ";;;", "for=\"[::1]\""],
  "X-Forwarded-Prefix": ["/../admin", "//evil.example"],
};

function addForwardedJunk(r: ReturnType<typeof prng>, headers: Record<string, string>, chance: number): void {
  for (const [name, values] of Object.entries(forwardedJunk)) if (r.chance(chance)) headers[name] = r.pick(values);
}

/** Every back-office list and the page numbers a crafted link could give it. */
const adminLists = ["/admin/orders?page=", "/admin/orders?status=paid&market=DE&page=", "/admin/reviews?status=pending&page=", "/admin/reviews?status=published&page=", "/admin/reviews?status=rejected&page=", "/admin/requests?withdrawals=", "/admin/requests?refundRequests=", "/admin/requests?feedback="];
const oddPages = ["1e300", "99999999999999999999", "-1", "0", "abc", "2.5", "0x10", "Infinity", "NaN", "%00", "", "100001", "9007199254740993", "1e-300", "+3", " 2", "二"];

function adminListProbe(r: ReturnType<typeof prng>, context: Context, clientOf: () => string): Probe {
  const path = `${r.pick(adminLists)}${encodeURIComponent(r.pick(oddPages))}`;
  const headers: Record<string, string> = { "X-Forwarded-For": clientOf(), Cookie: context.adminCookie };
  addForwardedJunk(r, headers, 0.1);
  return { kind: "fetch", label: `GET ${path.split("?")[0]} (odd page)`, method: "GET", path, headers };
}

/** Acceptances of every upsell step in every market but the order's own, by its own browser: none may add a line. */
function crossMarketAcceptances(context: Context): Probe[] {
  const form = { "Content-Type": "application/x-www-form-urlencoded", Cookie: context.order.cookie };
  return Object.keys(upsells.upsells).flatMap((step) =>
    markets
      .filter((market) => market.country !== context.orderMarket)
      .flatMap((market, index): Probe[] => [
        { kind: "fetch", label: `POST /${step}/<other market>`, method: "POST", path: `/${step}/${market.routeValue}`, headers: { ...form, "X-Forwarded-For": `198.51.100.${index + 1}` }, body: "intent=accept&digitalConsent=yes", upsell: true },
        { kind: "fetch", label: `POST /${step} (other market)`, method: "POST", path: `/${step}`, headers: { ...form, "X-Forwarded-For": `198.51.100.${index + 1}`, "CF-IPCountry": market.country }, body: "intent=accept&digitalConsent=yes", upsell: true },
      ]),
  );
}

/** A token with one character changed, a piece cut off or added: never a valid one. */
function altered(r: ReturnType<typeof prng>, token: string): string {
  const at = r.int(token.length);
  const swap = token[at] === "A" ? "B" : "A";
  return r.pick([
    `${token.slice(0, at)}${swap}${token.slice(at + 1)}`,
    token.slice(0, at),
    `${token}${r.text(r.int(5) + 1, "abcABC019-_.")}`,
    token.replace(".", ""),
    token.split(".").reverse().join("."),
    `${token}/${token}`,
    token.toUpperCase(),
  ]);
}

const oddRanges = ["bytes=0-", "bytes=1-", "bytes=-1", "bytes=-0", "bytes=0-0", "bytes=5-1", "bytes=abc", "bytes=", "bytes=--", "bytes=0--1", "items=0-1", "bytes=99999999999999999999-", "bytes=18446744073709551616-18446744073709551617", `bytes=${"9".repeat(400)}-`, `bytes=${Array.from({ length: 400 }, (_, i) => `${i}-${i}`).join(",")}`, "bytes=1-2,0-", "bytes = 1-", "bytes=\t1-", "bytes=1e3-", "bytes=0x10-", "bytes=-9007199254740993"];

/** The download route: the ebook's token, altered or forged ones, with odd `Range` and `If-Range` headers. */
function downloadProbe(r: ReturnType<typeof prng>, context: Context, clientOf: () => string): Probe {
  const token = r.pick(context.downloadTokens);
  const path = `/download/${r.pick([
    () => token,
    () => altered(r, token),
    () => altered(r, token),
    () => encodeURIComponent(r.text(r.int(80))),
    () => "x".repeat(r.pick([200, 5000])),
    () => `${token}%00`,
    () => `..%2f..%2f${token}`,
    () => "",
  ])()}`;
  const headers: Record<string, string> = { "X-Forwarded-For": clientOf() };
  if (r.chance(0.8)) headers.Range = r.pick(oddRanges);
  if (r.chance(0.2)) headers["If-Range"] = r.pick(['"abc"', "Thu, 01 Jan 1970 00:00:00 GMT", "x".repeat(300), ""]);
  if (r.chance(0.1)) headers["Accept-Encoding"] = r.pick(encodings);
  const method = r.pick(["GET", "GET", "GET", "HEAD", "POST"]);
  return { kind: "fetch", label: `${method} /download (${path.length > 60 ? "long" : "odd"})`, method, path, headers };
}

/**
 * Uploads to the back office without a session: no boundary, an empty or odd one, another origin, and
 * (over a raw socket) a declared length of 100 MB or more that never comes. Each is refused before
 * its body is read.
 */
function filesProbe(r: ReturnType<typeof prng>, context: Context, clientOf: () => string): Probe {
  const origin = r.pick([context.origin, context.origin, "https://evil.example", "null", ""]);
  const cookie = r.pick(["", "", "vitanor_admin=nope", `vitanor_admin=${"a".repeat(500)}`]);
  const type = r.pick(["multipart/form-data", "multipart/form-data; boundary=", `multipart/form-data; boundary=${"b".repeat(200)}`, "multipart/form-data; boundary=x; boundary=y", "multipart/mixed; boundary=x", "application/x-www-form-urlencoded", "text/plain"]);
  if (r.chance(0.35)) {
    const length = r.pick(["104857600", "1073741824", "99999999999999999999", "-1", "abc"]);
    const head = [`POST /admin/files HTTP/1.1`, "Host: shop", `X-Forwarded-For: ${clientOf()}`, `Content-Type: ${type}`, `Content-Length: ${length}`, ...(origin ? [`Origin: ${origin}`] : []), ...(cookie ? [`Cookie: ${cookie}`] : []), "Connection: close", "", ""].join("\r\n");
    return { kind: "raw", label: "raw POST /admin/files (declared huge)", writes: [head, "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.7"], end: true };
  }
  const headers: Record<string, string> = { "X-Forwarded-For": clientOf(), "Content-Type": type };
  if (origin) headers.Origin = origin;
  if (cookie) headers.Cookie = cookie;
  const body = r.chance(0.5) ? multipartBody(r).body : r.bytes(r.int(4096));
  return { kind: "fetch", label: "POST /admin/files (no session)", method: "POST", path: "/admin/files", headers, body };
}

/**
 * Split-test changes: without a session, with one but from another origin, and with one from the
 * back office's own origin but with forms that are never valid (a new test) or keys of no test.
 */
function experimentsProbe(r: ReturnType<typeof prng>, context: Context, clientOf: () => string): Probe {
  const headers: Record<string, string> = { "X-Forwarded-For": clientOf(), "Content-Type": r.pick(["application/x-www-form-urlencoded", "application/x-www-form-urlencoded", "multipart/form-data", "text/plain"]) };
  const body = formBody(r, context.token);
  const own = r.chance(0.5);
  if (own) {
    // The operator's session from the store's own origin: only posts that cannot change anything.
    const path = r.pick(["/admin/experiments", "/admin/experiments", "/admin/experiments/zzzzzzzz/start", "/admin/experiments/zzzzzzzz/ship", "/admin/experiments/%00/stop", `/admin/experiments/${"a".repeat(300)}/ship`, "/admin/experiments/../files"]);
    return { kind: "fetch", label: `POST ${path.slice(0, 40)} (operator, junk)`, method: "POST", path, headers: { ...headers, Cookie: context.adminCookie, Origin: context.origin }, body };
  }
  const path = r.pick(["/admin/experiments", `/admin/experiments/${context.experimentKey}/stop`, `/admin/experiments/${context.experimentKey}/ship`, `/admin/experiments/${context.experimentKey}/start`]);
  const who = r.int(3);
  if (who === 1) Object.assign(headers, { Cookie: context.adminCookie, Origin: r.pick(["https://evil.example", "null", `${context.origin}.evil.example`]) });
  if (who === 2) Object.assign(headers, { Cookie: context.adminCookie });
  if (who === 0 && r.chance(0.5)) headers.Origin = context.origin;
  return { kind: "fetch", label: `POST /admin/experiments… (${["no session", "other origin", "no origin"][who]})`, method: "POST", path, headers, body: body || `arm=1&intent=ship` };
}

/** The running test's entry and arm pages with `xp` values malformed, overlong, altered or full of control characters. */
function xpProbe(r: ReturnType<typeof prng>, context: Context, clientOf: () => string): Probe {
  const { experimentKey: key, xp } = context;
  const token = xp.split(".")[2] ?? "";
  const value = r.pick([
    () => encodeURIComponent(altered(r, xp)),
    () => `${key}.${r.pick(["", "-1", "9", "1e3", "01", "4294967296", "0x1"])}`,
    () => `${key}.1.${altered(r, token)}`,
    () => `${key}.0.${"A".repeat(r.pick([35, 36, 37, 5000]))}`,
    () => "x".repeat(r.pick([100, 5000, 20_000])),
    () => `${key}%00.1`,
    () => `${key}.1%0d%0aSet-Cookie:%20vitanor_xp=evil`,
    () => `${key}.1.${token}%1b%07%7f`,
    () => encodeURIComponent(r.text(r.int(60))),
    () => `${encodeURIComponent(xp)}&xp=${key}.0&xp=zzzzzzzz.1`,
    () => encodeURIComponent(`${xp}\t\u0000`),
    () => "%",
  ])();
  const path = `${r.pick(["/offer", "/offer/de", "/offer/fr", "/OFFER/DE", "/offer2/de", "/offer.data", "/checkout/de"])}?${r.chance(0.3) ? "src=v2&" : ""}xp=${value}`;
  const headers: Record<string, string> = { "X-Forwarded-For": clientOf(), "User-Agent": r.pick(["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "Googlebot/2.1", ""]) };
  if (r.chance(0.3)) headers.Cookie = r.pick([`vitanor_consent=granted; vitanor_xp=${encodeURIComponent(value)}`, `vitanor_consent=granted; vitanor_xp=${xp}~${xp}~${"a".repeat(2000)}`, "vitanor_consent=granted; vitanor_xp=~~~", `vitanor_xp=${xp}`]);
  const method = r.pick(["GET", "GET", "HEAD"]);
  return { kind: "fetch", label: `${method} entry (odd xp)`, method, path, headers };
}

function postProbe(r: ReturnType<typeof prng>, context: Context, clientOf: () => string): Probe {
  const route = r.pick(postRoutes);
  const headers: Record<string, string> = { "X-Forwarded-For": clientOf() };
  let body: string | Buffer;
  const style = r.int(10);
  if (style <= 3) {
    body = formBody(r, context.token);
    // With the cookie the checkout page set, so that the token is this client's and the fields are judged.
    headers.Cookie = context.checkoutCookie;
    headers["Content-Type"] = r.chance(0.85) ? "application/x-www-form-urlencoded" : r.pick(contentTypes);
  } else if (style === 4) {
    const multipart = multipartBody(r);
    body = multipart.body;
    headers["Content-Type"] = multipart.type;
  } else if (style === 5) {
    body = jsonBody(r);
    headers["Content-Type"] = "application/json";
  } else if (style === 6) {
    body = r.bytes(r.int(2048));
    headers["Content-Type"] = r.pick(contentTypes);
  } else if (style === 7) {
    // Oversized for every route but the webhooks.
    body = "a=".padEnd(r.pick([17 * 1024, 40 * 1024, 300 * 1024]), "b");
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  } else if (style === 8) {
    body = formBody(r, context.token);
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    headers["Content-Encoding"] = r.pick(["gzip", "br", "deflate", "x"]);
  } else {
    body = "";
    if (r.chance(0.5)) headers["Content-Type"] = r.pick(contentTypes);
  }
  // Upsell answers with the buyer's real order, so the action gets past the order check (never a real intent).
  if (route.includes("upsell") && r.chance(0.5)) headers.Cookie = context.order.cookie;
  else if (r.chance(0.2)) headers.Cookie = r.pick(["vn_order=forged", "vn_order=%%%", `vn_order=${"a".repeat(3000)}`, "vitanor_admin=nope", "a=b; ; ;=", ""]);
  // Back-office posts from its own origin reach the session check (never the login: that records failures by design).
  if (route.startsWith("/admin/") && route !== "/admin/login" && r.chance(0.6)) headers.Origin = context.origin;
  if (r.chance(0.3)) headers["User-Agent"] = r.pick(["Mozilla/5.0 (X11; Linux x86_64) Chrome/130", "curl/8", "", "Googlebot/2.1", "\u00ff"]);
  if (r.chance(0.1)) headers["Stripe-Signature"] = r.pick(["t=1,v1=abc", "", "garbage", `t=${Date.now()},v1=${"0".repeat(64)}`]);
  if (r.chance(0.1)) headers["Sec-Purpose"] = "prefetch";
  addForwardedJunk(r, headers, 0.05);
  return { kind: "fetch", label: `POST ${route.split("?")[0]}`, method: "POST", path: route, headers, body };
}

function pathProbe(r: ReturnType<typeof prng>, clientOf: () => string): Probe {
  const base = r.pick(pagePaths);
  const mutations = [
    () => base,
    () => `${base}/${r.text(r.int(30), "abcdefghijklmnopqrstuvwxyz0123456789-")}`,
    () => `/${r.text(r.int(40), "abcdefghijklmnopqrstuvwxyz/.-_~")}`,
    () => `${base}.data`,
    () => `${base}?${r.pick(["email=anna%40example.com", "_routes=root", "index", "src=" + r.text(50), "bundle=" + r.text(20), "a=%zz", "q=" + "x".repeat(1500)])}`,
    () => `${base}/${encodeURIComponent(r.text(r.int(20)))}`,
    () => `/${"a".repeat(r.pick([255, 257, 3000]))}`,
    () => `${base}/..%2f..%2fetc%2fpasswd`,
    () => `//${r.text(10, "abc./")}`,
    () => `${base}%00`,
  ];
  const path = r.pick(mutations)();
  const method = r.pick(["GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"]);
  const headers: Record<string, string> = { "X-Forwarded-For": clientOf() };
  if (r.chance(0.5)) headers["Accept-Encoding"] = r.pick(encodings);
  if (r.chance(0.3)) headers[r.pick(geoHeaders)] = r.pick(["DE", "fr", "XX", "", "ZZZ", "中", "1"]);
  if (r.chance(0.2)) headers["Accept-Language"] = r.pick(["de-DE,de;q=0.9", "*", ";;;", "x".repeat(1000)]);
  if (r.chance(0.2)) headers["If-None-Match"] = r.pick(['"abc"', "*", "W/", "x".repeat(200)]);
  if (r.chance(0.1)) headers.Range = r.pick(["bytes=0-10", "bytes=-1", "bytes=abc", "bytes=0-1,2-3,4-5"]);
  if (r.chance(0.2)) headers.Cookie = r.pick(["vn_order=forged", "vn_order=%%%", "vitanor_admin=abc", "a=b"]);
  addForwardedJunk(r, headers, 0.15);
  if (r.chance(0.1)) headers["X-Request-Id"] = r.pick(["ok-1", "<script>", "x".repeat(300)]);
  if (r.chance(0.05)) headers["X-React-Router-Prerender"] = "yes";
  if (r.chance(0.05)) headers["X-Storefront-Cached-Render"] = "1";
  const body = method === "POST" || method === "PUT" || method === "PATCH" ? r.text(r.int(300)) : undefined;
  return { kind: "fetch", label: `${method} ${path.length > 40 ? "(long)" : "(path)"}`, method, path, headers, ...(body === undefined ? {} : { body }) };
}

function rawProbe(r: ReturnType<typeof prng>, clientOf: () => string): Probe {
  const path = r.pick(pagePaths);
  const close = "Connection: close\r\n";
  const cases: (() => (string | Buffer)[])[] = [
    () => [`${r.pick(["TRACE", "CONNECT", "PROPFIND", "FOO", "get", "G\u00e9T"])} ${path} HTTP/1.1\r\nHost: shop\r\n${close}\r\n`],
    () => [`GET ${path} HTTP/${r.pick(["9.9", "1.2", "0.9", "2.0", "1"])}\r\nHost: shop\r\n${close}\r\n`],
    () => [`GET ${path}\r\n\r\n`],
    () => [r.bytes(r.int(500)), "\r\n\r\n"],
    () => [`GET ${path} HTTP/1.1\r\nHost: shop\r\nX-Bad: ${r.text(20)}\u0001\u007f\r\n${close}\r\n`],
    () => [Buffer.concat([Buffer.from(`GET ${path} HTTP/1.1\r\nHost: shop\r\nX-Latin: `), r.bytes(30), Buffer.from(`\r\n${close}\r\n`)])],
    () => [`GET ${path} HTTP/1.1\r\nHost: shop\r\nX-Big: ${"a".repeat(r.pick([9000, 20_000]))}\r\n${close}\r\n`],
    () => [`GET ${path} HTTP/1.1\r\nHost: shop\r\n${Array.from({ length: 150 }, (_, i) => `X-H${i}: ${i}\r\n`).join("")}${close}\r\n`],
    () => [`POST /feedback/de HTTP/1.1\r\nHost: shop\r\nContent-Length: 5\r\nContent-Length: 9\r\n${close}\r\nrating`],
    () => [`POST /feedback/de HTTP/1.1\r\nHost: shop\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n${close}\r\n0\r\n\r\n`],
    () => [`POST /withdraw/de HTTP/1.1\r\nHost: shop\r\nContent-Length: ${r.pick(["-1", "abc", "1e3", "99999999999999999999", " 5"])}\r\n${close}\r\nname=`],
    () => [`GET ${path} HTTP/1.1\r\nHost: shop\r\nX-Folded: a\r\n  b\r\n${close}\r\n`],
    () => [`GET ${path} HTTP/1.1\nHost: shop\n${close.replace("\r", "")}\n`],
    () => [`GET http://evil.example${path} HTTP/1.1\r\nHost: shop\r\n${close}\r\n`],
    () => [`OPTIONS * HTTP/1.1\r\nHost: shop\r\n${close}\r\n`],
    () => [`GET ${path} HTTP/1.0\r\n\r\n`],
    () => [`GET ${path} HTTP/1.1\r\nHost: [::1\r\n${close}\r\n`],
    () => [`GET ${path} HTTP/1.1\r\n${close}\r\n`],
    // A body cut short: the client says 200 bytes, sends 30 and goes away.
    () => [`POST ${r.pick(postRoutes)} HTTP/1.1\r\nHost: shop\r\nX-Forwarded-For: ${clientOf()}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\n${"rating=3&comment=".padEnd(30, "x")}`],
    // Pipelined: three requests in one write, the last one closing.
    () => [`GET /offer/de HTTP/1.1\r\nHost: shop\r\n\r\nPOST /funnel-view HTTP/1.1\r\nHost: shop\r\nX-Forwarded-For: ${clientOf()}\r\nContent-Length: 3\r\n\r\nx=yGET /healthz HTTP/1.1\r\nHost: shop\r\n${close}\r\n`],
    // A chunked body with broken chunk sizes.
    () => [`POST /funnel-view HTTP/1.1\r\nHost: shop\r\nTransfer-Encoding: chunked\r\n${close}\r\nzz\r\nabc\r\n0\r\n\r\n`],
    // A request line far too long.
    () => [`GET /${"a".repeat(r.pick([3000, 70_000]))} HTTP/1.1\r\nHost: shop\r\n${close}\r\n`],
  ];
  const writes = r.pick(cases)();
  return { kind: "raw", label: "raw", writes, end: true };
}

/** Stack traces, error names and source paths: none of it may reach a client. */
const leaks = [/\n\s+at [^\n]*[/\\][^\n]*:\d+/, /\bat (?:async )?[\w$.<>]+ \((?:file:|\/|node:)/, /\bError: /, /node_modules/, /\/work\//, /file:\/\//, /\.server\.(?:ts|js)/];

interface Tally {
  sent: number;
  byClass: Record<string, number>;
  /** Each route and status that answered 5xx, with how often. */
  fiveHundreds: Record<string, number>;
  /** Each probe that got no answer at all (fetch refused to send it, or the server closed first), with how often. */
  unanswered: Record<string, number>;
  leaks: string[];
}

function record(tally: Tally, label: string, statuses: number[], text: string) {
  tally.sent += 1;
  if (statuses.length === 0) {
    tally.byClass["no answer"] = (tally.byClass["no answer"] ?? 0) + 1;
    tally.unanswered[label] = (tally.unanswered[label] ?? 0) + 1;
  }
  for (const status of statuses) {
    const key = status === 429 ? "429" : status === 413 ? "413" : `${Math.floor(status / 100)}xx`;
    tally.byClass[key] = (tally.byClass[key] ?? 0) + 1;
    if (status >= 500 && status !== 503) tally.fiveHundreds[`${label} → ${status}`] = (tally.fiveHundreds[`${label} → ${status}`] ?? 0) + 1;
  }
  const leaked = leaks.find((pattern) => pattern.test(text));
  if (leaked) tally.leaks.push(`${label}: ${leaked.source}: ${text.slice(0, 300)}`);
}

/** Row counts of everything a request could write, and the total of counted page views. */
const countedTables = ["orders", "order_lines", "order_events", "payments", "refunds", "outbox", "withdrawals", "refund_requests", "feedback", "webhook_events", "test_gateway_charges", "operator_sessions", "audit_log", "review_invitations", "reviews", "digital_files", "download_links", "experiments"];
/**
 * An upsell page rendered for the buyer's open order (after any post to it) counts as an offer
 * shown: those events are what the page is for, so only the others are counted.
 */
const countedRows = (table: string) => (table === "order_events" ? `${table} where type <> 'upsell_shown'` : table);
const countQuery = `select ${countedTables.map((table) => `(select count(*) from ${countedRows(table)})::int as ${table}`).join(", ")}, (select coalesce(sum(views), 0) from page_views)::int as page_views`;

describe.each(databaseKinds)("fuzzing the production server on %s", (kind) => {
  let dataDir: string;
  let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
  let env: Record<string, string>;
  let server: RunningServer | undefined;

  /** The rows of a query, on whichever database the store runs (PGlite only while no server holds it). */
  async function rows<T extends Record<string, unknown>>(text: string): Promise<T[]> {
    if (postgres) return postgres.query<T>(text);
    const database = await openDatabase({ dataDir });
    try {
      return ((await database.db.execute(sql.raw(text))) as unknown as { rows: T[] }).rows;
    } finally {
      await database.close();
    }
  }

  async function counts(): Promise<Record<string, number>> {
    return (await rows<Record<string, number>>(countQuery))[0] ?? {};
  }

  /** The buyer's order (the store's only one): its market, currency, total and lines. */
  async function orderMoney(): Promise<{ market: string; currency: string; totalMinor: number; lines: { source: string; bundleId: string; grossMinor: number; vatMinor: number; vatRateBp: number; createdAt: Date }[] }> {
    const orderQuery = "select market, currency, total_minor as \"totalMinor\" from orders";
    const lineQuery = "select source, bundle_id as \"bundleId\", gross_minor as \"grossMinor\", vat_minor as \"vatMinor\", vat_rate_bp as \"vatRateBp\", created_at as \"createdAt\" from order_lines order by source";
    type Money = Awaited<ReturnType<typeof orderMoney>>;
    const orders = await rows<Omit<Money, "lines">>(orderQuery);
    expect(orders).toHaveLength(1);
    const lines = (await rows<Money["lines"][number]>(lineQuery)).map((line) => ({ ...line, createdAt: new Date(line.createdAt) }));
    return { ...(orders[0] as Omit<Money, "lines">), lines };
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-fuzz-"));
    postgres = kind === "postgres" ? await createPostgresDatabase("fuzz") : undefined;
    env = { DATA_DIR: dataDir, TRUST_PROXY: "loopback", LOG_LEVEL: "warn", ...(postgres ? { DATABASE_URL: postgres.url } : {}) };
  });
  afterAll(async () => {
    await server?.stop();
    await postgres?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(`sends ${requestCount} malformed requests: no 5xx, no stack trace, still serving, the database as the valid requests left it`, { timeout: 240_000 }, async () => {
    // A store with one real order (whose cookie the upsell posts carry), its funnel still open and
    // one upsell taken on its own market's page, an operator logged in and a split test of /offer
    // running; then counted at rest.
    expect(addOperator(env, "fuzz@example.com", "owner", operatorPassword).status).toBe(0);
    const first = await startServer(env);
    const order = await placeOrder(first.url, { thankYou: false });
    const ownUpsell = await fetch(`${first.url}/upsell/de`, { method: "POST", body: new URLSearchParams({ intent: "accept", digitalConsent: "yes" }), headers: { Cookie: order.cookie }, redirect: "manual" });
    expect(ownUpsell.status).toBe(303);
    const login = await fetch(`${first.url}/admin/login`, { method: "POST", body: new URLSearchParams({ email: "fuzz@example.com", password: operatorPassword }), headers: { Origin: new URL(first.url).origin }, redirect: "manual" });
    const adminCookie = /vitanor_admin=[^;]+/.exec(login.headers.get("set-cookie") ?? "")?.[0] ?? "";
    expect(adminCookie).not.toBe("");
    const experimentStarted = await fetch(`${first.url}/admin/experiments`, {
      method: "POST",
      body: "name=Fuzz&entry=%2Foffer&armPath=%2Foffer&armWeight=50&armPath=%2Foffer2&armWeight=50&primaryMetric=conversion",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: new URL(first.url).origin, Cookie: adminCookie },
      redirect: "manual",
    });
    const experimentKey = /\/admin\/experiments\/([a-z0-9]{8})\?done=started$/.exec(experimentStarted.headers.get("location") ?? "")?.[1] ?? "";
    expect(experimentKey).not.toBe("");
    await first.stop();
    const [signingKey] = await rows<{ value: string }>("select value from store_secrets where name = 'signing-key'");
    if (!signingKey) throw new Error("the store made no signing key");
    // The ebook's link, as the thank-you page would issue it, with room for a few dozen downloads so
    // that the ranges meet both a link that serves and one used up.
    const [link] = await rows<{ id: string }>("insert into download_links (id, order_id, order_line_id, expires_at, max_downloads) select gen_random_uuid(), order_id, id, now() + interval '30 days', 40 from order_lines where kind = 'digital' returning id");
    if (!link) throw new Error("the order has no digital line");
    const downloadTokens = [downloadToken(signingKey.value, link.id), downloadToken(signingKey.value, randomUUID())];
    const before = await counts();
    const moneyBefore = await orderMoney();
    expect(moneyBefore.lines.map((line) => line.source)).toEqual(["checkout", "upsell:upsell"]);

    server = await startServer(env);
    const { url } = server;
    const shown = await fetch(`${url}/checkout/de?bundle=shape-3`);
    const checkoutCookie = /vn_checkout=[^;]+/.exec(shown.headers.get("set-cookie") ?? "")?.[0] ?? "";
    const checkoutPage = await shown.text();
    const assigned = await fetch(`${url}/offer/de`, { headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36" }, redirect: "manual" });
    // The arm's page is answered at the entry's address, which names the arm's own.
    const xp = new URL(assigned.headers.get("content-location") ?? "/", url).searchParams.get("xp") ?? "";
    const context: Context = { origin: new URL(url).origin, token: /name="token" value="([^"]+)"/.exec(checkoutPage)?.[1] ?? "", checkoutCookie, order, orderMarket: "DE", adminCookie, downloadTokens, experimentKey, xp };
    expect(checkoutCookie).not.toBe("");
    expect(context.token).not.toBe("");
    expect(xp.startsWith(`${experimentKey}.`)).toBe(true);
    // The ebook's link serves (the test order's test delivery), so the ranges reach the range rules.
    expect((await fetch(`${url}/download/${downloadTokens[0] ?? ""}`, { headers: { Range: "bytes=0-99" } })).status).toBe(206);

    const r = prng(seed);
    const addresses = Array.from({ length: 4000 }, (_, i) => `10.${(i >> 8) & 255}.${i & 255}.${r.int(254) + 1}`);
    const hammer = "203.0.113.66";
    const clientOf = () => (r.chance(0.04) ? hammer : r.chance(0.02) ? r.pick(["nonsense", "1.2.3.4, 5.6.7.8", "::ffff:zz", "", "x".repeat(200)]) : r.pick(addresses));
    const probes: Probe[] = [];
    for (let i = 0; i < requestCount; i++) {
      const next = r.next();
      probes.push(
        next < 0.47
          ? postProbe(r, context, clientOf)
          : next < 0.69
            ? pathProbe(r, clientOf)
            : next < 0.73
              ? adminListProbe(r, context, clientOf)
              : next < 0.79
                ? downloadProbe(r, context, clientOf)
                : next < 0.83
                  ? filesProbe(r, context, clientOf)
                  : next < 0.86
                    ? experimentsProbe(r, context, clientOf)
                    : next < 0.91
                      ? xpProbe(r, context, clientOf)
                      : rawProbe(r, clientOf),
      );
    }
    const acceptances = crossMarketAcceptances(context);
    acceptances.forEach((probe, index) => probes.splice(Math.floor(((index + 1) * probes.length) / (acceptances.length + 1)), 0, probe));
    // The valid requests among them: five feedbacks without an e-mail address and five page views.
    for (let i = 0; i < 5; i++) {
      probes.splice(Math.floor(((i + 1) * probes.length) / 7), 0, {
        kind: "fetch",
        label: "valid feedback",
        method: "POST",
        path: "/feedback/de",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": `192.0.2.${i + 1}` },
        body: `rating=${i + 1}&comment=${encodeURIComponent("Sehr gut, danke")}`,
        valid: "feedback",
      });
      probes.splice(Math.floor(((i + 1.5) * probes.length) / 7), 0, {
        kind: "fetch",
        label: "valid page view",
        method: "POST",
        path: "/funnel-view",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": `192.0.2.${i + 10}`, "User-Agent": "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36" },
        body: "step=offer&market=DE&src=fuzz",
        valid: "beacon",
      });
    }

    // And one client posting a form sixty times in a row, which meets the rate limit (twenty a minute)
    // even if its burst straddles the turn of a minute.
    probes.splice(Math.floor(probes.length / 2), 0, ...Array.from({ length: 60 }, (): Probe => ({
      kind: "fetch",
      label: "hammer",
      method: "POST",
      path: "/refund/fr",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": hammer },
      body: "orderNumber=VN-0000-0000&reason=none",
    })));

    const tally: Tally = { sent: 0, byClass: {}, fiveHundreds: {}, unanswered: {}, leaks: [] };
    const validAnswers: number[] = [];
    const upsellAnswers: Record<string, number> = {};
    const started = Date.now();
    // A few clients that trickle, while the rest goes on.
    const trickling = Promise.all([
      rawRequest(url, "GET /offer/de HTTP/1.1\r\nHost: shop\r\nUser-Agent: slow\r\n\r\n".split(""), { everyMs: 2_000, timeoutMs: 30_000 }),
      rawRequest(url, ["POST /feedback/de HTTP/1.1\r\nHost: shop\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 40\r\n\r\n", ..."rating=3&comment=slowly".split("")], { everyMs: 2_000, timeoutMs: 30_000 }),
      rawRequest(url, [], { timeoutMs: 30_000 }),
      rawRequest(url, "POST /webhooks/stripe HTTP/1.1\r\nHost: shop\r\nContent-Length: 100000\r\n\r\n".split("").concat(["{"]), { everyMs: 1_000, timeoutMs: 30_000 }),
    ]);

    let next = 0;
    const lane = async () => {
      while (next < probes.length) {
        const probe = probes[next++] as Probe;
        if (probe.kind === "raw") {
          const answer = await rawRequest(url, probe.writes, { timeoutMs: 8_000, endAfterWrites: probe.end });
          record(tally, probe.label, [...answer.text.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((match) => Number(match[1])), answer.text);
          continue;
        }
        try {
          const response = await fetch(`${url}${probe.path}`, { method: probe.method, headers: probe.headers, ...(probe.body === undefined ? {} : { body: typeof probe.body === "string" ? probe.body : new Uint8Array(probe.body) }), redirect: "manual" });
          const text = probe.method === "HEAD" ? "" : await response.text();
          record(tally, probe.label, [response.status], text);
          if (probe.valid) validAnswers.push(response.status);
          if (probe.upsell) upsellAnswers[`${probe.label} → ${response.status}`] = (upsellAnswers[`${probe.label} → ${response.status}`] ?? 0) + 1;
        } catch {
          // fetch refuses some of what we generate (a header value it cannot send): nothing reached the server.
          record(tally, probe.label, [], "");
          if (probe.valid) validAnswers.push(0);
        }
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    const slow = await trickling;
    const seconds = (Date.now() - started) / 1000;

    console.log(
      `fuzz (seed ${seed}): ${tally.sent} requests in ${seconds.toFixed(1)} s over ${lanes} connections at a time; answers by status: ${Object.entries(tally.byClass)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, count]) => `${key} ${count}`)
        .join(", ")}; no answer to ${JSON.stringify(tally.unanswered)}; slow clients cut off after ${slow.map((answer) => (answer.closedAfterMs === null ? "never" : `${(answer.closedAfterMs / 1000).toFixed(1)} s`)).join(", ")}`,
    );

    expect(tally.sent).toBeGreaterThanOrEqual(requestCount);
    // This round's surface had its share: downloads, uploads, split-test changes and `xp` values.
    for (const label of ["/download", "/admin/files", "/admin/experiments", "odd xp"]) expect(probes.filter((probe) => probe.label.includes(label)).length, label).toBeGreaterThan(requestCount / 50);
    expect(tally.fiveHundreds).toEqual({});
    // An upload is refused, with an answer, before its body is read, however large it says it is.
    expect(Object.keys(tally.unanswered).filter((label) => /\/admin\/(files|experiments)|odd xp/.test(label))).toEqual([]);
    expect(tally.leaks).toEqual([]);
    expect(tally.byClass["4xx"]).toBeGreaterThan(tally.sent / 2);
    expect(tally.byClass["429"]).toBeGreaterThanOrEqual(20);
    expect(tally.byClass["413"]).toBeGreaterThan(0);
    expect([...validAnswers].sort()).toEqual([200, 200, 200, 200, 200, 204, 204, 204, 204, 204]);
    // Every acceptance on another market's page is told the offer can no longer be added.
    expect(Object.keys(upsellAnswers).every((key) => key.endsWith("→ 409"))).toBe(true);
    expect(Object.values(upsellAnswers).reduce((sum, count) => sum + count, 0)).toBe(acceptances.length);
    for (const answer of slow) {
      expect(answer.closedAfterMs).not.toBeNull();
      expect(answer.closedAfterMs).toBeLessThan(20_000);
    }

    // Still serving, and still stopping cleanly.
    expect((await fetch(`${url}/offer/de`)).status).toBe(200);
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
    const exited = once(server.process, "exit");
    server.process.kill("SIGTERM");
    expect((await exited)[0]).toBe(0);
    expect(server.output()).not.toMatch(/\n\s+at /);

    const after = await counts();
    // The ebook's first download (the setup's) adds its event and an invitation to review it, with its e-mail.
    const firstDownload = { order_events: (before.order_events ?? 0) + 1, review_invitations: (before.review_invitations ?? 0) + 1, outbox: (before.outbox ?? 0) + 1 };
    expect(after).toEqual({ ...before, ...firstDownload, feedback: (before.feedback ?? 0) + 5, page_views: (before.page_views ?? 0) + 5 });
    // However the ranges were asked, the ebook's link counted no more downloads than it allows.
    const [used] = await rows<{ count: number }>(`select download_count as count from download_links where id = '${link.id}'`);
    expect(used?.count).toBeGreaterThan(1);
    expect(used?.count).toBeLessThanOrEqual(40);
    // No post without a session, or from another origin, changed the split test.
    expect(await rows("select key, status from experiments")).toEqual([{ key: experimentKey, status: "running" }]);
    // The order grew only by its own market's upsell, priced as its own market prices it.
    const moneyAfter = await orderMoney();
    expect(moneyAfter).toEqual(moneyBefore);
    const own = marketForCountryCode(moneyAfter.market);
    if (!own) throw new Error(`the order's market ${moneyAfter.market} is no market`);
    for (const line of moneyAfter.lines.filter((candidate) => candidate.source !== "checkout")) {
      const priced = quoteLine(own, line.bundleId, line.createdAt);
      expect(line, line.source).toMatchObject({ grossMinor: priced.grossMinor, vatMinor: priced.vatMinor, vatRateBp: priced.vatRateBp });
    }
    expect(moneyAfter.totalMinor).toBe(moneyAfter.lines.reduce((sum, line) => sum + line.grossMinor, 0) + standardDeliveryMinor(own));
    expect(moneyAfter.currency).toBe(own.currency);
  });
});
