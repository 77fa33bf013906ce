import { describe, expect, it } from "vitest";
import { consentCookieName } from "../platform/cookies";
import { armCookieName, decide as decideWith, type EntryRequest } from "./assignment.server";
import type { LiveExperiment, LiveExperiments } from "./experiments.server";
import { newExposureToken, readExposureToken } from "./exposure-token.server";

const signingKey = "a signing key for the tests";
const now = Date.parse("2026-11-20T10:00:00Z");
const decide = (request: EntryRequest, experiments: LiveExperiments, newId: () => string) => decideWith(request, experiments, newId, signingKey, now);
/** A location's `xp` with its token replaced by `<token>`, after checking that the token is the store's, made now. */
function withoutToken(location: string): string {
  return location.replace(/xp=([a-z0-9]{8})\.(\d)\.([A-Za-z0-9_-]{36})/, (_all, key: string, arm: string, token: string) => {
    expect(readExposureToken(signingKey, key, Number(arm), token)?.getTime()).toBe(now);
    return `xp=${key}.${arm}.<token>`;
  });
}

const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const crawler = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const offerTest: LiveExperiment = {
  key: "k3j9x2ab",
  entryPath: "/offer",
  arms: [
    { path: "/offer", weight: 50 },
    { path: "/offer2", weight: 50 },
  ],
  market: null,
  status: "running",
  shippedArm: null,
};
const live = (...experiments: LiveExperiment[]): LiveExperiments => new Map(experiments.map((experiment) => [experiment.entryPath.toLowerCase(), experiment]));

function request(url: string, headers: Record<string, string> = {}, geo = "DE"): EntryRequest {
  const parsed = new URL(url, "http://store.test");
  const all: Record<string, string> = { "user-agent": browser, ...headers };
  return { method: "GET", pathname: parsed.pathname, search: parsed.search, header: (name) => all[name], geoMarket: () => geo, secure: false };
}

/** An id the hash puts in the control arm (0) or the other arm (1) of `offerTest`. */
const idFor = (arm: number) => (arm === 0 ? "visitor-b" : "visitor-a");

describe("the redirect of an entry path under test", () => {
  it.each([
    // url, the random id's arm, where the redirect leads
    ["/offer", 0, "/offer?xp=k3j9x2ab.0.<token>"],
    ["/offer", 1, "/offer2?xp=k3j9x2ab.1.<token>"],
    ["/offer/fr", 1, "/offer2/fr?xp=k3j9x2ab.1.<token>"],
    ["/OFFER/FR", 0, "/offer/fr?xp=k3j9x2ab.0.<token>"],
    ["/offer/ch-fr?src=v2&utm_source=ad", 1, "/offer2/ch-fr?src=v2&utm_source=ad&xp=k3j9x2ab.1.<token>"],
    ["/offer?xp=zzzzzzzz.1&src=v2", 0, "/offer?src=v2&xp=k3j9x2ab.0.<token>"],
    ["/offer?xp=k3j9x2ab.3", 1, "/offer2?xp=k3j9x2ab.1.<token>"],
  ])("%s with an id of arm %i goes to %s", (url, arm, location) => {
    const decision = decide(request(url), live(offerTest), () => idFor(arm));
    expect(decision).toMatchObject({ kind: "redirect", redirect: { cookies: [] }, exposure: { key: "k3j9x2ab", arm } });
    const redirect = decision.kind === "redirect" ? decision.redirect : { location: "", armLocations: [] };
    expect(withoutToken(redirect.location)).toBe(location);
    // Every arm's address with the same query, the drawn one among them: the server answers in place only if it keeps each.
    const query = redirect.location.slice(redirect.location.indexOf("?"));
    const locale = /^\/offer2?(\/[a-z-]+)?\?/.exec(location)?.[1] ?? "";
    expect(redirect.armLocations.map((other) => other.replace(query, ""))).toEqual([`/offer${locale}`, `/offer2${locale}`]);
    expect(redirect.armLocations[arm]).toBe(redirect.location);
  });

  it("gives every assignment a token of its own", () => {
    const locations = new Set(Array.from({ length: 50 }, () => {
      const decision = decide(request("/offer"), live(offerTest), () => idFor(1));
      return decision.kind === "redirect" ? decision.redirect.location : "";
    }));
    expect(locations.size).toBe(50);
  });

  it("the ids used above are the hash's", () => {
    for (const arm of [0, 1]) expect(decide(request("/offer"), live(offerTest), () => idFor(arm))).toMatchObject({ exposure: { arm } });
  });

  it.each([
    ["/offer?xp=k3j9x2ab.0"],
    ["/offer/fr?xp=k3j9x2ab.1&src=v2"],
    [`/offer/fr?xp=k3j9x2ab.1.${newExposureToken(signingKey, "k3j9x2ab", 1, now)}`],
    [`/offer?xp=k3j9x2ab.0.${"A".repeat(36)}`],
    ["/offer2?xp=k3j9x2ab.1"],
    ["/offer2"],
    ["/offer.data"],
    ["/checkout/fr"],
    ["/offerup"],
  ])("%s is served as it is", (url) => {
    expect(decide(request(url), live(offerTest), () => "x")).toEqual({ kind: "pass" });
  });

  it("names the market of a locale path, and of the geo headers without one", () => {
    expect(decide(request("/offer/se"), live(offerTest), () => "x")).toMatchObject({ exposure: { market: "SE" } });
    expect(decide(request("/offer", {}, "GB"), live(offerTest), () => "x")).toMatchObject({ exposure: { market: "GB" } });
  });

  it("counts an exposure in the market of the arm's page, where its orders will be", () => {
    // A test made before arms were checked for their market: the special-offer arm shows France.
    const special = { ...offerTest, arms: [{ path: "/offer", weight: 50 }, { path: "/offerV7", weight: 50 }] };
    expect(decide(request("/offer", {}, "GB"), live(special), () => idFor(1))).toMatchObject({ exposure: { arm: 1, market: "FR" } });
    expect(decide(request("/offer", {}, "GB"), live(special), () => idFor(0))).toMatchObject({ exposure: { arm: 0, market: "GB" } });
  });

  it("leaves other markets alone when the test has one", () => {
    const french = { ...offerTest, market: "FR" };
    expect(decide(request("/offer/de"), live(french), () => "x")).toEqual({ kind: "pass" });
    expect(decide(request("/offer", {}, "DE"), live(french), () => "x")).toEqual({ kind: "pass" });
    expect(decide(request("/offer/fr"), live(french), () => "x")).toMatchObject({ kind: "redirect" });
  });

  it("answers only GET and HEAD", () => {
    expect(decide({ ...request("/offer"), method: "POST" }, live(offerTest), () => "x")).toEqual({ kind: "pass" });
  });
});

describe("crawlers and prefetches", () => {
  it("serves a crawler the control's page and counts nothing", () => {
    expect(decide(request("/offer/fr", { "user-agent": crawler }), live(offerTest), () => idFor(1))).toEqual({ kind: "pass" });
    const controlElsewhere = { ...offerTest, arms: [{ path: "/take", weight: 50 }, { path: "/offer2", weight: 50 }] };
    expect(decide(request("/offer/fr?src=v2", { "user-agent": crawler }), live(controlElsewhere), () => idFor(1))).toEqual({
      kind: "redirect",
      redirect: { location: "/take/fr?src=v2", cookies: [], armLocations: [] },
      exposure: null,
    });
  });

  it("counts no prefetch and no request without a user agent", () => {
    expect(decide(request("/offer", { "sec-purpose": "prefetch" }), live(offerTest), () => idFor(1))).toEqual({ kind: "pass" });
    expect(decide(request("/offer", { "user-agent": "" }), live(offerTest), () => idFor(1))).toEqual({ kind: "pass" });
  });
});

describe("the arm cookie, only with consent", () => {
  it("sets no cookie before consent", () => {
    expect(decide(request("/offer"), live(offerTest), () => idFor(1))).toMatchObject({ redirect: { cookies: [] } });
  });

  it("keeps the arm in a cookie once the visitor consented", () => {
    const decision = decide(request("/offer", { cookie: `${consentCookieName}=granted` }), live(offerTest), () => idFor(1));
    const location = decision.kind === "redirect" ? decision.redirect.location : "";
    expect(withoutToken(location)).toBe("/offer2?xp=k3j9x2ab.1.<token>");
    const cookies = decision.kind === "redirect" ? decision.redirect.cookies : [];
    expect(cookies).toHaveLength(1);
    // The cookie keeps the exposure's token, the same the redirect carries.
    expect(cookies[0]).toBe(`${armCookieName}=${location.split("xp=")[1]}; Max-Age=${90 * 86_400}; Path=/; HttpOnly; SameSite=Lax`);
  });

  it("sends a consenting visitor back to the arm and exposure of the cookie, without counting again", () => {
    const token = newExposureToken(signingKey, "k3j9x2ab", 1, now - 86_400_000);
    const headers = { cookie: `other=1; ${consentCookieName}=granted; ${armCookieName}=aaaaaaaa.2~k3j9x2ab.1.${token}` };
    expect(decide(request("/offer/fr", headers), live(offerTest), () => idFor(0))).toEqual({
      kind: "redirect",
      redirect: { location: `/offer2/fr?xp=k3j9x2ab.1.${token}`, cookies: [], armLocations: [`/offer/fr?xp=k3j9x2ab.1.${token}`, `/offer2/fr?xp=k3j9x2ab.1.${token}`] },
      exposure: null,
    });
  });

  it.each([
    ["without a token", "k3j9x2ab.0"],
    ["with a forged token", `k3j9x2ab.0.${"A".repeat(36)}`],
    ["with another arm's token", `k3j9x2ab.0.${newExposureToken(signingKey, "k3j9x2ab", 1, now)}`],
  ])("treats a cookie %s as no cookie: the arm comes from the hash, with a new token", (_case, kept) => {
    const headers = { cookie: `${consentCookieName}=granted; ${armCookieName}=aaaaaaaa.2~${kept}` };
    const decision = decide(request("/offer/fr", headers), live(offerTest), () => idFor(1));
    expect(decision).toMatchObject({ kind: "redirect", exposure: { arm: 1 } });
    const location = decision.kind === "redirect" ? decision.redirect.location : "";
    expect(withoutToken(location)).toBe("/offer2/fr?xp=k3j9x2ab.1.<token>");
    expect(decision.kind === "redirect" && decision.redirect.cookies[0]).toContain(`=aaaaaaaa.2~k3j9x2ab.1.${location.split(".1.")[1]};`);
  });

  it("ignores the cookie without consent and removes it", () => {
    const decision = decide(request("/offer", { cookie: `${armCookieName}=k3j9x2ab.1` }), live(offerTest), () => idFor(0));
    expect(decision).toMatchObject({ exposure: { arm: 0 } });
    expect(withoutToken(decision.kind === "redirect" ? decision.redirect.location : "")).toBe("/offer?xp=k3j9x2ab.0.<token>");
    expect(decision.kind === "redirect" && decision.redirect.cookies[0]).toMatch(/^vitanor_xp=; Max-Age=0/);
  });

  it("marks the cookie Secure over HTTPS", () => {
    const decision = decide({ ...request("/offer", { cookie: `${consentCookieName}=granted` }), secure: true }, live(offerTest), () => idFor(1));
    expect(decision.kind === "redirect" && decision.redirect.cookies[0]).toMatch(/; Secure$/);
  });
});

describe("a shipped test", () => {
  const shipped: LiveExperiment = { ...offerTest, status: "shipped", shippedArm: 1 };

  it("sends everyone to the winner, without an arm and without counting", () => {
    expect(decide(request("/offer/fr?src=v2"), live(shipped), () => "x")).toEqual({ kind: "redirect", redirect: { location: "/offer2/fr?src=v2", cookies: [], armLocations: [] }, exposure: null });
    expect(decide(request("/offer?xp=k3j9x2ab.0"), live(shipped), () => "x")).toMatchObject({ redirect: { location: "/offer2" } });
  });

  it("serves the entry as it is when the control won", () => {
    expect(decide(request("/offer/fr"), live({ ...shipped, shippedArm: 0 }), () => "x")).toEqual({ kind: "pass" });
  });
});

describe("requests that must not go round in a circle or count as visitors", () => {
  const shippedThere: LiveExperiment = { ...offerTest, key: "aaaa1111", status: "shipped", shippedArm: 1 };
  const shippedBack: LiveExperiment = { key: "bbbb2222", entryPath: "/offer2", arms: [{ path: "/offer2", weight: 50 }, { path: "/offer", weight: 50 }], market: null, status: "shipped", shippedArm: 1 };

  it("never redirects again a request that carries a valid xp of any live test, shipped ones included", () => {
    const both = live(shippedThere, shippedBack);
    expect(decide(request("/offer"), live(shippedThere), () => "x")).toMatchObject({ kind: "redirect", redirect: { location: "/offer2" } });
    // Even if two shipped tests point at each other, the arm's page carrying an xp is served.
    expect(decide(request("/offer2?xp=aaaa1111.1"), both, () => "x")).toEqual({ kind: "pass" });
    expect(decide(request("/offer?xp=bbbb2222.1"), live(offerTest, shippedBack), () => "x")).toEqual({ kind: "pass" });
    // An xp of no live test, or of an arm it does not have, is no reason to pass.
    expect(decide(request("/offer?xp=zzzz9999.1"), live(offerTest), () => idFor(1))).toMatchObject({ kind: "redirect" });
    expect(decide(request("/offer?xp=bbbb2222.3"), live(offerTest, shippedBack), () => idFor(1))).toMatchObject({ kind: "redirect" });
  });

  /** The locations a visitor's browser goes through from `url`, following redirects (at most ten). */
  function follow(url: string, experiments: LiveExperiments, method = "GET", agent = browser): string[] {
    const visited = [url];
    for (let hop = 0; hop < 10; hop++) {
      const decision = decide({ ...request(visited.at(-1) ?? url, { "user-agent": agent }), method }, experiments, () => idFor(1));
      if (decision.kind === "pass") return visited;
      visited.push(decision.redirect.location);
    }
    return visited;
  }

  it("does not loop between two shipped tests pointing at each other, though no request carries an xp", () => {
    // Stored before the back office refused such a pair: each entry is the other's shipped arm.
    const both = live(shippedThere, shippedBack);
    for (const url of ["/offer", "/offer2", "/offer/fr?src=v2", "/OFFER2/CH-FR"]) {
      const visited = follow(url, both);
      expect(visited.length, visited.join(" → ")).toBeLessThanOrEqual(2);
      expect(new Set(visited.map((location) => location.toLowerCase())).size).toBe(visited.length);
    }
  });

  it("does not loop through a control that is another test's entry, for crawlers and HEAD requests", () => {
    // A running test whose control is the entry of a shipped test that points back.
    const running: LiveExperiment = { ...offerTest, key: "cccc3333", arms: [{ path: "/offer2", weight: 50 }, { path: "/take2", weight: 50 }] };
    for (const [method, agent] of [["HEAD", browser], ["GET", crawler]] as const) {
      const visited = follow("/offer", live(running, shippedBack), method, agent);
      expect(visited.length, visited.join(" → ")).toBeLessThanOrEqual(2);
    }
  });

  it("sends a HEAD request to the control without counting it as a visitor", () => {
    const head = { ...request("/offer"), method: "HEAD" };
    expect(decide(head, live(offerTest), () => idFor(1))).toEqual({ kind: "pass" });
    expect(decide({ ...request("/offer/fr"), method: "HEAD" }, live(offerTest), () => idFor(1))).toEqual({ kind: "pass" });
  });
});
