import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { placeOrder } from "../orders/order-service.server";
import { quoteCheckout } from "../orders/quote.server";
import { marketFor } from "../market/markets";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { testBuyer, testToday } from "../test-support/orders";
import { touchViews } from "./schema";
import { directTouch, touchCookieValue, type Touch } from "./touch";
import { eraseClickId, keptTouch, receiveTouchView, touchCookieFor, touchOfCheckout, touchOfOrder, touchOfPage } from "./touches.server";

const adTouch: Touch = { ...directTouch, source: "meta", medium: "paid_social", campaign: "spring", content: "video-a", clickIdKind: "fbclid", clickId: "IwAR2x", landingPath: "/offer/de" };
const kept = (touch: Touch) => `vitanor_touch=${touchCookieValue(touch)}`;
const consent = "vitanor_consent=granted";
const shop = "https://shop.example";
const page = (address: string, cookie: string | null = null, referrer: string | null = null) => ({ url: new URL(address), cookie, referrer });

describe("the touch of a page", () => {
  it("is what the query names, with the page as where the visit landed", () => {
    expect(touchOfPage(page("https://shop.example/offer/de?utm_source=meta&utm_medium=paid_social&utm_campaign=spring&utm_content=video-a&fbclid=IwAR2x"))).toEqual(adTouch);
  });

  it("is the referring site when the query names nothing, never our own", () => {
    expect(touchOfPage(page("https://shop.example/de", null, "https://www.google.com/"))).toMatchObject({ source: "google.com", medium: "referral", landingPath: "/de" });
    expect(touchOfPage(page("https://shop.example/de", null, "https://shop.example/offer/de"))).toEqual(directTouch);
  });

  it("is the kept touch for a direct visit, only while consent stands", () => {
    expect(touchOfPage(page("https://shop.example/offer/de", `${consent}; ${kept(adTouch)}`))).toEqual(adTouch);
    expect(touchOfPage(page("https://shop.example/offer/de", kept(adTouch)))).toEqual(directTouch);
    expect(keptTouch(`vitanor_consent=denied; ${kept(adTouch)}`)).toBeNull();
  });

  it("takes a new campaign over the kept one, and the kept one when it is the same", () => {
    const other = touchOfPage(page("https://shop.example/fr?utm_source=google&utm_medium=cpc", `${consent}; ${kept(adTouch)}`));
    expect(other).toMatchObject({ source: "google", medium: "cpc", landingPath: "/fr" });
    const same = touchOfPage(page("https://shop.example/checkout/de?utm_source=meta&utm_medium=paid_social&utm_campaign=spring&utm_content=video-a&fbclid=IwAR2x", `${consent}; ${kept(adTouch)}`));
    expect(same).toEqual(adTouch);
  });

  it("at the checkout has no landing path of its own", () => {
    const request = new Request("https://shop.example/checkout/de?bundle=shape-3&utm_source=news&utm_medium=email", { method: "POST" });
    expect(touchOfCheckout(request)).toMatchObject({ source: "news", medium: "email", landingPath: null });
    expect(touchOfCheckout(new Request("https://shop.example/checkout/de?bundle=shape-3", { method: "POST", headers: { Cookie: `${consent}; ${kept(adTouch)}` } }))).toEqual(adTouch);
  });

  it("at the checkout keeps the click id's kind but not the id without consent", () => {
    const address = "https://shop.example/checkout/de?bundle=shape-3&utm_source=meta&fbclid=IwAR2x";
    expect(touchOfCheckout(new Request(address, { method: "POST" }))).toMatchObject({ source: "meta", clickIdKind: "fbclid", clickId: null });
    expect(touchOfCheckout(new Request(address, { method: "POST", headers: { Cookie: consent } }))).toMatchObject({ clickIdKind: "fbclid", clickId: "IwAR2x" });
  });
});

describe("the touch cookie", () => {
  const ad = "https://shop.example/offer/de?utm_source=meta&utm_medium=paid_social&utm_campaign=spring&utm_content=video-a&fbclid=IwAR2x";

  it.each<[string, string, string | null, RegExp | null]>([
    ["no consent, nothing kept: nothing written", ad, null, null],
    ["consent and a touch: kept for 30 days", ad, consent, /^vitanor_touch=[^;]+; Max-Age=2592000; Path=\/; SameSite=Lax; Secure$/],
    ["consent and a direct visit: the kept touch stays", "https://shop.example/offer/de", `${consent}; ${kept(adTouch)}`, null],
    ["consent and the same touch again: not written again", ad, `${consent}; ${kept(adTouch)}`, null],
    ["consent and another touch: the last one wins", "https://shop.example/fr?utm_source=google", `${consent}; ${kept(adTouch)}`, /^vitanor_touch=[^;]*google[^;]*; Max-Age=2592000/],
    ["consent withdrawn: the cookie goes", ad, kept(adTouch), /^vitanor_touch=; Max-Age=0; Path=\/; SameSite=Lax; Secure$/],
  ])("%s", (_name, address, cookie, expected) => {
    const written = touchCookieFor(page(address, cookie), true);
    if (expected === null) expect(written).toBeNull();
    else expect(written).toMatch(expected);
  });

  it("stays under 3,000 bytes: content and term go first, else nothing is written", () => {
    const long = "é".repeat(100);
    const trimmed = touchCookieFor(page(`https://shop.example/offer/de?utm_source=${long}&utm_campaign=${long}&utm_content=${long}&utm_term=${long}&utm_medium=${long}`, consent), true) ?? "";
    expect(trimmed.split(";")[0]?.length).toBeLessThanOrEqual(3000 + "vitanor_touch=".length);
    expect(trimmed).not.toMatch(/(^|&)n=/);
    const huge = "€".repeat(100);
    const fat = `https://shop.example/offer/de?utm_source=${huge}&utm_medium=${huge}&utm_campaign=${huge}&gclid=${"a".repeat(500)}&utm_content=x`;
    expect(touchCookieFor(page(fat, consent), true)).toBeNull();
  });
});

describe.each(databaseKinds)("touches stored on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("keeps an order's touch with the order, and none for an order without one", async () => {
    const market = marketFor("DE");
    const quote = quoteCheckout(market, "shape-3", testToday);
    if (!quote) throw new Error("shape-3 is not for sale");
    const place = (touch: Touch | undefined) =>
      placeOrder(
        database.db,
        { checkoutToken: randomUUID(), market: "DE", locale: market.locale, currency: market.currency, contact: testBuyer, lines: quote.lines, totals: quote.totals, funnelSrc: null, test: true, digitalConsent: false, ...(touch ? { touch } : {}) },
        { provider: "test", method: "card", returnPath: "/checkout/de?bundle=shape-3" },
      );
    const withTouch = await place(adTouch);
    const without = await place(undefined);
    expect(await touchOfOrder(database.db, withTouch.order.id)).toEqual(adTouch);
    expect(await touchOfOrder(database.db, without.order.id)).toBeNull();

    // Erasing the buyer's data takes the click id, which names one person's click, and keeps the campaign.
    await eraseClickId(database.db, withTouch.order.id);
    expect(await touchOfOrder(database.db, withTouch.order.id)).toEqual({ ...adTouch, clickId: null, content: "", term: "" });
  });

  it("counts nothing for a beacon from another site's page, whatever touch it names", async () => {
    const headers = new Headers({ Referer: "https://elsewhere.example/offer/de?utm_source=made-up", Cookie: consent, Host: "shop.example" });
    expect(await receiveTouchView(database.db, { day: "2026-11-22", step: "offer", market: "DE" }, headers, false, shop)).toBeNull();
    expect((await database.db.select().from(touchViews)).filter((row) => row.day === "2026-11-22")).toEqual([]);
    // The host the request was sent to is ours too, when the public address names another.
    const sameHost = new Headers({ Referer: "http://127.0.0.1:3000/offer/de?utm_source=local", Host: "127.0.0.1:3000" });
    await receiveTouchView(database.db, { day: "2026-11-22", step: "offer", market: "DE" }, sameHost, false, shop);
    expect((await database.db.select().from(touchViews)).filter((row) => row.day === "2026-11-22").map((row) => row.source)).toEqual(["local"]);
  });

  it("lets only an entry step name a new touch: back from a payment provider, the kept one stays", async () => {
    const cookie = `${consent}; ${kept(adTouch)}`;
    const back = new Headers({ Referer: "https://shop.example/thankyou/de?token=EC-1", Cookie: cookie });
    expect(await receiveTouchView(database.db, { day: "2026-11-23", step: "thank-you", market: "DE", referrer: "paypal.com" }, back, false, shop)).toBeNull();
    const upsell = new Headers({ Referer: "https://shop.example/upsell/de", Cookie: cookie });
    expect(await receiveTouchView(database.db, { day: "2026-11-23", step: "upsell-1", market: "DE", referrer: "checkout.stripe.com" }, upsell, false, shop)).toBeNull();
    const rows = (await database.db.select().from(touchViews)).filter((row) => row.day === "2026-11-23").map((row) => row.source);
    expect(rows).toEqual(["meta", "meta"]);
    // A later step keeps the first touch of a visitor who consented there.
    const consentedAtCheckout = new Headers({ Referer: "https://shop.example/checkout/de?utm_source=meta&fbclid=IwAR2x", Cookie: consent });
    expect(await receiveTouchView(database.db, { day: "2026-11-23", step: "checkout", market: "DE" }, consentedAtCheckout, false, shop)).toMatch(/^vitanor_touch=s=meta/);
    // Without consent a later step still removes the cookie.
    const withdrawn = new Headers({ Referer: "https://shop.example/upsell/de", Cookie: kept(adTouch) });
    expect(await receiveTouchView(database.db, { day: "2026-11-23", step: "upsell-1", market: "DE" }, withdrawn, false, shop)).toMatch(/^vitanor_touch=; Max-Age=0/);
  });

  it("counts page views per touch, every one of many at once, and answers the cookie to write", async () => {
    const headers = new Headers({ Referer: "https://shop.example/offer/de?utm_source=meta&utm_campaign=count", Cookie: consent });
    const view = { day: "2026-11-20", step: "offer", market: "DE" };
    const cookies = await Promise.all(Array.from({ length: 20 }, () => receiveTouchView(database.db, view, headers, false, shop)));
    expect(cookies.every((cookie) => cookie?.startsWith("vitanor_touch=") && !cookie.includes("Secure"))).toBe(true);
    await receiveTouchView(database.db, { ...view, referrer: "news.example.org" }, new Headers({ Referer: "https://shop.example/offer/de" }), false, shop);
    const rows = (await database.db.select().from(touchViews)).filter((row) => row.day === "2026-11-20").map(({ source, medium, campaign, views }) => ({ source, medium, campaign, views }));
    expect(rows.sort((a, b) => a.source.localeCompare(b.source))).toEqual([
      { source: "meta", medium: "unknown", campaign: "count", views: 20 },
      { source: "news.example.org", medium: "referral", campaign: "", views: 1 },
    ]);
  });

  it("counts nothing for a beacon without a page address", async () => {
    expect(await receiveTouchView(database.db, { day: "2026-11-21", step: "offer", market: "DE" }, new Headers(), false, shop)).toBeNull();
    expect((await database.db.select().from(touchViews)).filter((row) => row.day === "2026-11-21")).toEqual([]);
  });
});
