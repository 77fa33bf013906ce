import { describe, expect, it } from "vitest";
import { prerenderPaths } from "./prerender";
import { findRouteEntry, layoutNames, paymentReturnRows, routeEntries, routeRows } from "./route-table";

/**
 * The funnel's routes, layout by layout (decision 1), plus the routes given to names without one
 * (decision 41) and the commerce routes (checkout, withdrawal: decision 42) and of verified reviews (the review
 * form and how reviews are checked).
 */
const specification: Record<string, string[]> = {
  default: ["/", "/checkout", "/withdraw", "/review", "/review-policy"],
  offer: [
    "/1get", "/6offer", "/buy", "/get", "/offer", "/offer2month5", "/offerback", "/offerbuy", "/offercoll",
    "/offerexitpop", "/offerg", "/offericons", "/offerrecom", "/offersalt", "/offerthanks", "/offerup",
    "/offerV4", "/offerV7", "/v8offer", "/take", "/take3", "/offera", "/offerip",
  ],
  "offer-advertorial": ["/offer2"],
  offer2: ["/take2"],
  lionoffer: ["/lionoffer"],
  empty: [
    "/collagen-upsell", "/detolex-upsell", "/feedback", "/fibergum", "/hypnotherapy", "/hypnotherapyy",
    "/paypal-confirm", "/refund", "/terms", "/upsell", "/upsellfat", "/upsellMind", "/v8",
  ],
  none: ["/addapp"],
  quiz: [
    "/summary", "/v1", "/v2", "/v3", "/v31", "/v4", "/v5", "/v6", "/v7", "/v9", "/v10", "/vsalt",
    "/summarypop", "/v1ip", "/v1ip-summary",
  ],
  "thank-you": ["/thankyou"],
};

/** Route names the order-now button, the footer and the funnel's links use (decision 41). */
const namesInSpecification = [
  "index", "index-2", "take", "take-2", "take2", "take2-2", "take3", "take3-2", "buy", "buy-2", "offer",
  "offer2", "offer2-2", "offerV4-2", "offera-2", "6offer-2", "offerV7-2", "v8offer-2", "offerrecom-2",
  "lionoffer-2", "offersalt-2", "offerip-2", "get2", "1get-2", "summary", "summary-2", "summarypop-2",
  "v1ip-summary-2", "terms-2",
];

describe("route table", () => {
  it.each(Object.entries(specification))("layout %s has exactly the specified routes", (layout, paths) => {
    const rows = [...routeRows, ...paymentReturnRows].filter((row) => row.layout === layout).map((row) => row.path);
    expect(rows.sort()).toEqual([...paths].sort());
  });

  it("has one row per specified route and no other", () => {
    expect(routeRows.length + paymentReturnRows.length).toBe(Object.values(specification).flat().length);
  });

  it.each(namesInSpecification)("knows the route name %s", (name) => {
    expect(findRouteEntry(name)).toBeDefined();
  });

  it.each([
    ["index", "/"],
    ["index-2", "/:locale"],
    ["get2", "/get/:locale"],
    ["offer-2", "/offer/:locale"],
    ["upsellMind-2", "/upsellMind/:locale"],
    ["paypal-confirm-2", "/paypal-confirm/:from"],
    ["thankyou-2", "/thankyou/:locale"],
  ])("%s is %s", (name, pattern) => {
    expect(findRouteEntry(name)?.pattern).toBe(pattern);
  });

  it("gives /offerthanks no twin and /paypal-confirm a :from twin", () => {
    expect(findRouteEntry("offerthanks-2")).toBeUndefined();
    expect(findRouteEntry("paypal-confirm-2")?.param).toBe("from");
    expect(findRouteEntry("get-2")).toBeUndefined();
  });

  it("has unique names and patterns", () => {
    expect(new Set(routeEntries.map((entry) => entry.name)).size).toBe(routeEntries.length);
    expect(new Set(routeEntries.map((entry) => entry.pattern.toLowerCase())).size).toBe(routeEntries.length);
  });

  it("uses only known layouts", () => {
    for (const entry of routeEntries) expect(layoutNames).toContain(entry.layout);
  });
});

describe("prerender paths", () => {
  const paths = prerenderPaths();

  it("covers every locale route for all twelve route values", () => {
    const localeRoutes = routeEntries.filter((entry) => entry.param === "locale" && entry.name !== "checkout-2" && entry.name !== "review-2");
    expect(paths).toHaveLength(localeRoutes.length * 12);
    expect(paths).toEqual(expect.arrayContaining(["/fr", "/offer/ch-fr", "/get/gb", "/thankyou/it"]));
  });

  it("never prerenders a page without a locale", () => {
    expect(paths).not.toContain("/offer");
    expect(paths.some((path) => path.startsWith("/paypal-confirm"))).toBe(false);
    expect(paths.some((path) => path.startsWith("/offerthanks/"))).toBe(false);
  });

  it("never prerenders the checkout and the review form, which are made per visit", () => {
    expect(paths.some((path) => path.startsWith("/checkout"))).toBe(false);
    expect(paths.some((path) => path.startsWith("/review/"))).toBe(false);
    expect(paths).toContain("/review-policy/fr");
    expect(paths).toContain("/withdraw/fr");
  });
});
