import { describe, expect, it } from "vitest";
import { exposureTokenPattern } from "../app/experiments/experiment-model";
import { routeEntries } from "../app/funnel/route-table";
import {
  cacheableQuery,
  cachedSearch,
  cacheableRouteNames,
  forVisitor,
  headerForVisitor,
  standInToken,
  cacheGeneration,
  PageCache,
  pageCacheKey,
} from "./page-cache";

const entry = (bytes: number) => ({ bytes });
const generation = "build-1\n2026-05-01";

describe("PageCache", () => {
  it("evicts the least recently used entries once the byte budget is exceeded", () => {
    const cache = new PageCache<{ bytes: number }>(10_000);
    expect(cache.get(generation, "a")).toBeUndefined();
    cache.set(generation, "a", "pa", entry(3_000));
    cache.set(generation, "b", "pb", entry(3_000));
    // Reading `a` makes `b` the least recently used.
    expect(cache.get(generation, "a")).toBeDefined();
    cache.set(generation, "c", "pc", entry(3_000));
    expect(cache.get(generation, "b")).toBeUndefined();
    expect(cache.get(generation, "a")).toBeDefined();
    expect(cache.get(generation, "c")).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 2, evictions: 1 });
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
  });

  it("counts every entry's bodies and bookkeeping against the budget", () => {
    const cache = new PageCache<{ bytes: number }>(1_000_000);
    cache.set(generation, "a", "pa", entry(100_000));
    cache.set(generation, "b", "pb", entry(200_000));
    expect(cache.stats().bytes).toBeGreaterThanOrEqual(300_000);
    expect(cache.stats().bytes).toBeLessThan(310_000);
  });

  it("refuses an entry larger than half the budget", () => {
    const cache = new PageCache<{ bytes: number }>(10_000);
    cache.get(generation, "x");
    expect(cache.set(generation, "big", "p", entry(6_000))).toBe(false);
    expect(cache.stats().entries).toBe(0);
  });

  it("keeps a bounded number of query variants per page, turning over only that page's", () => {
    const cache = new PageCache<{ bytes: number }>(1_000_000, 3);
    cache.get(generation, "x");
    cache.set(generation, "other", "p2", entry(10));
    for (const n of [1, 2, 3, 4, 5]) cache.set(generation, `q${n}`, "p1", entry(10));
    expect(cache.get(generation, "q1")).toBeUndefined();
    expect(cache.get(generation, "q2")).toBeUndefined();
    expect(cache.get(generation, "q5")).toBeDefined();
    expect(cache.get(generation, "other")).toBeDefined();
    expect(cache.stats().entries).toBe(4);
  });

  it("starts empty for a new build or day, and refuses renders of a past one", () => {
    const cache = new PageCache<{ bytes: number }>(1_000_000);
    cache.get(generation, "a");
    cache.set(generation, "a", "p", entry(10));
    const tomorrow = "build-1\n2026-05-02";
    expect(cache.get(tomorrow, "a")).toBeUndefined();
    expect(cache.stats().entries).toBe(0);
    expect(cache.set(generation, "a", "p", entry(10))).toBe(false);
  });

  it("puts a better version of an entry in its place and counts its new size", () => {
    const cache = new PageCache<{ bytes: number }>(1_000_000);
    const quick = entry(30_000);
    cache.set(generation, "a", "p", quick);
    const before = cache.stats().bytes;
    const better = entry(20_000);
    expect(cache.replace(generation, "a", quick, better)).toBe(true);
    expect(cache.get(generation, "a")).toBe(better);
    expect(cache.stats().bytes).toBe(before - 10_000);
    // Only the version it replaces: an entry stored again meanwhile stays.
    expect(cache.replace(generation, "a", quick, entry(1))).toBe(false);
    expect(cache.replace(generation, "missing", quick, entry(1))).toBe(false);
  });

  it("is off with a budget of 0", () => {
    expect(new PageCache(0).enabled).toBe(false);
  });
});

describe("cache keys", () => {
  it("keep a split test's arm with a stand-in for the token of one visit, so each arm is rendered once", () => {
    const token = "AZm3xQ2b8fGh1-_kLmNoPqRs0123456789ab";
    const standIn = `xp=k3j9x2ab.1.${standInToken}`;
    expect(cachedSearch(`?src=ad&xp=k3j9x2ab.1.${token}&utm_source=mail`)).toEqual({ search: `?src=ad&${standIn}&utm_source=mail`, token });
    expect(cachedSearch(`?xp=k3j9x2ab.1.${token}`)).toEqual({ search: `?${standIn}`, token });
    // An arm without a token shares the arm's page, and its answer carries no token.
    expect(cachedSearch("?xp=k3j9x2ab.1&src=v2")).toEqual({ search: `?${standIn}&src=v2`, token: "" });
    // Anything that is not an exposure token is part of the page's key as sent.
    expect(cachedSearch(`?xp=k3j9x2ab.0.${token}x`)).toEqual({ search: `?xp=k3j9x2ab.0.${token}x`, token: null });
    expect(cachedSearch("?src=v2")).toEqual({ search: "?src=v2", token: null });
    expect(standInToken).toMatch(exposureTokenPattern);
  });

  it("answer each visitor with their own token, or none, wherever the stand-in is", () => {
    const token = "BQx7_yT0pLmN2aBcDeFgHiJkLmNoPqRsTu-9";
    const kept = Buffer.from(`<a href="/checkout?xp=k.1.${standInToken}&amp;src=ad">é</a><script>{"renderedSearch":"?xp=k.1.${standInToken}"}</script>`);
    expect(forVisitor(kept, token).toString()).toBe(`<a href="/checkout?xp=k.1.${token}&amp;src=ad">é</a><script>{"renderedSearch":"?xp=k.1.${token}"}</script>`);
    expect(forVisitor(kept, "").toString()).toBe(`<a href="/checkout?xp=k.1&amp;src=ad">é</a><script>{"renderedSearch":"?xp=k.1"}</script>`);
    expect(kept.toString()).toContain(standInToken);
    expect(headerForVisitor(`/offer2?xp=k.1.${standInToken}`, token)).toBe(`/offer2?xp=k.1.${token}`);
  });

  it("are made of the market, the path as sent and the raw query", () => {
    expect(pageCacheKey({ path: "/offer", geo: "FR", search: "?src=v2" })).toEqual({ key: "FR\n/offer\n?src=v2", page: "FR\n/offer" });
    const keys = new Set(
      [
        { path: "/offer", geo: "FR", search: "" },
        { path: "/offer", geo: "DE", search: "" },
        { path: "/Offer", geo: "FR", search: "" },
        { path: "/offer.data", geo: "FR", search: "" },
        { path: "/offer", geo: "FR", search: "?src=v2" },
        { path: "/offer", geo: "FR", search: "?src=v3" },
        { path: "/offer", geo: "FR", search: "?a=1&src=v2" },
      ].map((parts) => pageCacheKey(parts).key),
    );
    expect(keys.size).toBe(7);
  });

  it("belong to one build and one UTC day", () => {
    expect(cacheGeneration("abc123", new Date("2026-05-01T23:59:59Z"))).toBe("abc123\n2026-05-01");
    expect(cacheGeneration("abc123", new Date("2026-05-02T00:00:00Z"))).toBe("abc123\n2026-05-02");
  });

  it.each<[string, boolean, boolean]>([
    ["", false, true],
    ["?src=v2", false, true],
    ["?src=v2&step=bundle&bundle=shape-3", false, true],
    ["?utm_source=fb&utm_medium=cpc&utm_campaign=spring&utm_content=a&utm_term=b", false, true],
    ["?src=v2&_routes=root,offer", true, true],
    ["?_routes=root", false, false],
    ["?fbclid=IwAR0abc", false, false],
    ["?gclid=abc&src=v2", false, false],
    ["?src=someone@example.com", false, false],
    ["?email=a%40b.c", false, false],
    [`?utm_campaign=${"x".repeat(300)}`, false, false],
  ])("query %j (data: %s) may be cached: %s", (search, isData, expected) => {
    expect(cacheableQuery(search, isData)).toBe(expected);
  });

});

describe("cacheable routes", () => {
  const byName = new Map(routeEntries.map((route) => [route.name as string, route]));

  it("are routes of the route table without a locale", () => {
    for (const name of cacheableRouteNames) {
      expect(byName.get(name), name).toBeDefined();
      expect(byName.get(name)?.param, name).toBeNull();
    }
  });

  it("never include a page with personal data or a form's answer", () => {
    const personal = new Set(["checkout", "thank-you", "paypal-confirm", "refund", "feedback", "withdraw"]);
    for (const name of cacheableRouteNames) expect(personal.has(byName.get(name)?.page ?? ""), name).toBe(false);
    for (const name of ["checkout", "checkout-2", "thankyou", "offerthanks", "paypal-confirm", "refund", "feedback", "withdraw", "admin", "test-gateway", "not-found"]) {
      expect(cacheableRouteNames.has(name), name).toBe(false);
    }
  });

  it("cover every geo page of the shared funnel: offers, takes, quizzes, summaries, upsells", () => {
    const shared = routeEntries.filter((route) => route.param === null && ["offer", "quiz", "summary", "upsell", "home"].includes(route.page));
    for (const route of shared) expect(cacheableRouteNames.has(route.name), route.name).toBe(true);
  });
});
