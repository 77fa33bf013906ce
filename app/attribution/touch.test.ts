import { describe, expect, it } from "vitest";
import { cleanClickId, cleanHost, cleanText, directTouch, referrerHostOf, touchCookieValue, touchLimits, touchOfCookieValue, touchOfRequest, type Touch } from "./touch";

const touch = (fields: Partial<Touch>): Touch => ({ ...directTouch, ...fields });

describe("touchOfRequest", () => {
  it.each<[string, { query: string; referrerHost?: string | null; landingPath?: string }, Touch]>([
    ["direct", { query: "" }, directTouch],
    ["the funnel's own parameters are no touch", { query: "src=v2&bundle=shape-3&xp=k.1.t" }, directTouch],
    [
      "every utm field",
      { query: "utm_source=meta&utm_medium=cpc&utm_campaign=black-friday&utm_content=video-a&utm_term=slim", landingPath: "/offer/fr" },
      touch({ source: "meta", medium: "cpc", campaign: "black-friday", content: "video-a", term: "slim", landingPath: "/offer/fr" }),
    ],
    ["a click id alone names its platform", { query: "gclid=Cj0KCQ-abc_123" }, touch({ source: "google", medium: "paid", clickIdKind: "gclid", clickId: "Cj0KCQ-abc_123" })],
    ["gbraid", { query: "gbraid=0AAAAA" }, touch({ source: "google", medium: "paid", clickIdKind: "gbraid", clickId: "0AAAAA" })],
    ["wbraid", { query: "wbraid=CkQKCQ" }, touch({ source: "google", medium: "paid", clickIdKind: "wbraid", clickId: "CkQKCQ" })],
    ["fbclid", { query: "fbclid=IwAR2x" }, touch({ source: "facebook", medium: "paid", clickIdKind: "fbclid", clickId: "IwAR2x" })],
    ["ttclid", { query: "ttclid=E.C.P.abc" }, touch({ source: "tiktok", medium: "paid", clickIdKind: "ttclid", clickId: "E.C.P.abc" })],
    ["msclkid", { query: "msclkid=5a1b2c" }, touch({ source: "microsoft", medium: "paid", clickIdKind: "msclkid", clickId: "5a1b2c" })],
    [
      "utm and a click id: the utm names the source",
      { query: "utm_source=fb&utm_campaign=spring&fbclid=IwAR2x" },
      touch({ source: "fb", medium: "paid", campaign: "spring", clickIdKind: "fbclid", clickId: "IwAR2x" }),
    ],
    ["a referring site", { query: "", referrerHost: "www.Google.com", landingPath: "/fr" }, touch({ source: "google.com", medium: "referral", referrerHost: "google.com", landingPath: "/fr" })],
    [
      "a campaign beats the referring site, which is kept",
      { query: "utm_campaign=news", referrerHost: "news.example.org" },
      touch({ source: "news.example.org", medium: "referral", campaign: "news", referrerHost: "news.example.org" }),
    ],
    ["control characters are taken out", { query: "utm_source=me%00ta%0A&utm_campaign=%E2%80%AEspring%1B" }, touch({ source: "meta", medium: "unknown", campaign: "spring" })],
    ["only control characters: no value", { query: "utm_source=%00%01%02" }, directTouch],
    ["an over-long value is cut", { query: `utm_campaign=${"c".repeat(300)}&utm_source=x` }, touch({ source: "x", medium: "unknown", campaign: "c".repeat(touchLimits.text) })],
    ["an over-long click id is dropped", { query: `gclid=${"a".repeat(touchLimits.clickId + 1)}` }, directTouch],
    ["a click id that is not a token is dropped", { query: "fbclid=<script>" }, directTouch],
    ["a landing path that is not a path is dropped", { query: "utm_source=x", landingPath: "javascript:alert(1)" }, touch({ source: "x", medium: "unknown" })],
    ["a bad referring host is dropped", { query: "", referrerHost: "not a host" }, directTouch],
  ])("%s", (_name, request, expected) => {
    expect(touchOfRequest(request)).toEqual(expected);
  });
});

describe("cleaning", () => {
  it.each([
    ["  spaced  ", "spaced"],
    ["tab\tinside", "tabinside"],
    ["\u200bzero-width", "zero-width"],
    ["é".repeat(150), "é".repeat(100)],
    ["😀".repeat(101), "😀".repeat(100)],
  ])("cleanText(%j)", (value, expected) => {
    expect(cleanText(value)).toBe(expected);
  });

  it.each([
    ["abc-_.~123", "abc-_.~123"],
    ["", null],
    ["a b", null],
    ["a%20b", null],
  ])("cleanClickId(%j)", (value, expected) => {
    expect(cleanClickId(value)).toBe(expected);
  });

  it.each([
    ["WWW.Example.COM", "example.com"],
    ["localhost", null],
    ["ex ample.com", null],
    [`${"a".repeat(254)}.com`, null],
  ])("cleanHost(%j)", (value, expected) => {
    expect(cleanHost(value)).toBe(expected);
  });

  it.each([
    ["https://www.google.com/search?q=x", "shop.example", "google.com"],
    ["https://shop.example/offer/fr", "shop.example", null],
    ["https://www.shop.example/offer/fr", "shop.example:443", null],
    ["not a url", "shop.example", null],
    ["", "shop.example", null],
  ])("referrerHostOf(%j, %j)", (referrer, own, expected) => {
    expect(referrerHostOf(referrer, own)).toBe(expected);
  });
});

describe("e-mail addresses in a campaign's tags", () => {
  it("blank the value that holds one, so it reaches neither the data layer nor the store", () => {
    const named = touchOfRequest({ query: "utm_source=news&utm_medium=email&utm_campaign=jane.doe@example.com&utm_content=x%40y&utm_term=ok" });
    expect(named).toMatchObject({ source: "news", medium: "email", campaign: "", content: "", term: "ok" });
    expect(cleanText("a@b")).toBe("");
  });
});

describe("the touch cookie's value", () => {
  it("holds a touch and gives it back", () => {
    const kept = touch({ source: "meta", medium: "cpc", campaign: "a b;c,d", clickIdKind: "fbclid", clickId: "IwAR2x", referrerHost: "l.facebook.com", landingPath: "/offer/fr" });
    const value = touchCookieValue(kept);
    expect(value).not.toMatch(/[;, ]/);
    expect(touchOfCookieValue(value)).toEqual(kept);
  });

  it.each([
    ["nothing", ""],
    ["a broken escape", "%E0%A4%A"],
    ["a direct touch", touchCookieValue(directTouch)],
    ["no source", encodeURIComponent("m=cpc")],
  ])("reads %s as no touch", (_name, value) => {
    expect(touchOfCookieValue(value)).toBeNull();
  });

  it("is encoded once, and still reads a cookie encoded twice as it was before", () => {
    const kept = touch({ source: "meta", medium: "cpc", campaign: "sommer aktion" });
    expect(touchCookieValue(kept)).toBe("s=meta&m=cpc&c=sommer+aktion");
    expect(touchOfCookieValue(encodeURIComponent(touchCookieValue(kept)))).toEqual(kept);
  });

  it("cleans what a hand-made cookie holds", () => {
    const value = encodeURIComponent(new URLSearchParams({ s: "x\u0000y", m: "cpc", k: "evil", i: "abc", l: "//elsewhere" }).toString());
    expect(touchOfCookieValue(value)).toEqual(touch({ source: "xy", medium: "cpc", landingPath: "//elsewhere" }));
  });
});
