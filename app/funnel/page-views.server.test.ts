import { describe, expect, it } from "vitest";
import { pageViews } from "./schema";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { parsePageView, receivePageView } from "./page-views.server";

const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const now = new Date("2026-11-23T23:59:59Z");

function beacon(body: string, headers: Record<string, string> = {}): Request {
  return new Request("http://shop.test/funnel-view", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8", "User-Agent": browser, "Sec-Fetch-Site": "same-origin", ...headers },
  });
}

interface Case {
  name: string;
  body: string;
  headers?: Record<string, string>;
  status: number;
  /** The row counted, as day|step|market|src, or null when nothing may be counted. */
  counted: string | null;
}

const cases: Case[] = [
  { name: "a view with a variant", body: "step=offer&market=DE&src=v2", status: 204, counted: "2026-11-23|offer|DE|v2" },
  { name: "a view without a variant", body: "step=landing&market=CH-FR&src=", status: 204, counted: "2026-11-23|landing|CH-FR|" },
  { name: "a view with src left out", body: "step=upsell-2&market=GB", status: 204, counted: "2026-11-23|upsell-2|GB|" },
  { name: "a variant of 40 characters", body: `step=quiz&market=SE&src=${"a_B-9".repeat(8)}`, status: 204, counted: `2026-11-23|quiz|SE|${"a_B-9".repeat(8)}` },
  { name: "an unknown step", body: "step=basket&market=DE&src=", status: 400, counted: null },
  { name: "a step in capitals", body: "step=Offer&market=DE&src=", status: 400, counted: null },
  { name: "an upsell step the funnel has not", body: "step=upsell-7&market=DE&src=", status: 400, counted: null },
  { name: "an unknown market", body: "step=offer&market=US&src=", status: 400, counted: null },
  { name: "a market in lower case", body: "step=offer&market=de&src=", status: 400, counted: null },
  { name: "a route value instead of a market", body: "step=offer&market=ch-fr&src=", status: 400, counted: null },
  { name: "a variant with other characters", body: "step=offer&market=DE&src=v2%20or%201%3D1", status: 400, counted: null },
  { name: "a variant that is an address", body: "step=offer&market=DE&src=a%40example.com", status: 400, counted: null },
  { name: "a variant longer than 40 characters", body: `step=offer&market=DE&src=${"v".repeat(41)}`, status: 400, counted: null },
  { name: "a referring site and a landing path", body: "step=offer&market=DE&src=&ref=news.example.org&land=/offer/de", status: 204, counted: "2026-11-23|offer|DE|" },
  { name: "an extra field", body: "step=offer&market=DE&src=&email=a%40example.com", status: 400, counted: null },
  { name: "a field twice", body: "step=offer&step=checkout&market=DE", status: 400, counted: null },
  { name: "no step", body: "market=DE&src=v2", status: 400, counted: null },
  { name: "an empty body", body: "", status: 400, counted: null },
  { name: "JSON", body: '{"step":"offer","market":"DE"}', headers: { "Content-Type": "application/json" }, status: 400, counted: null },
  { name: "an oversized body", body: `step=offer&market=DE&src=v2&${"x".repeat(2000)}`, status: 400, counted: null },
  { name: "a crawler", body: "step=offer&market=DE&src=bot", headers: { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" }, status: 204, counted: null },
  { name: "a headless browser", body: "step=offer&market=DE&src=bot", headers: { "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/140.0.0.0 Safari/537.36" }, status: 204, counted: null },
  { name: "no user agent", body: "step=offer&market=DE&src=bot", headers: { "User-Agent": "" }, status: 204, counted: null },
  { name: "a prefetch (Sec-Purpose)", body: "step=offer&market=DE&src=pre", headers: { "Sec-Purpose": "prefetch" }, status: 204, counted: null },
  { name: "a prerender (Sec-Purpose)", body: "step=offer&market=DE&src=pre", headers: { "Sec-Purpose": "prefetch;prerender" }, status: 204, counted: null },
  { name: "a prefetch (Purpose)", body: "step=offer&market=DE&src=pre", headers: { Purpose: "prefetch" }, status: 204, counted: null },
  { name: "another site's page", body: "step=offer&market=DE&src=x", headers: { "Sec-Fetch-Site": "cross-site" }, status: 403, counted: null },
];

describe.each(databaseKinds)("page-view beacon on %s", (kind) => {
  const database = useTestDatabase(kind);
  const rows = async () => (await database.db.select().from(pageViews)).map((row) => `${row.day}|${row.step}|${row.market}|${row.src}=${row.views}`).sort();

  it.each(cases)("answers $name with $status", async ({ body, headers, status, counted }) => {
    const before = await rows();
    expect(await receivePageView(database.db, beacon(body, headers), now)).toBe(status);
    const after = await rows();
    if (counted === null) {
      expect(after).toEqual(before);
      return;
    }
    const views = (list: string[]) => Number(list.find((row) => row.startsWith(`${counted}=`))?.split("=")[1] ?? 0);
    expect(views(after)).toBe(views(before) + 1);
    expect(after.filter((row) => !row.startsWith(`${counted}=`))).toEqual(before.filter((row) => !row.startsWith(`${counted}=`)));
  });

  it("adds up views of the same day, step, market and variant, and starts a new row the next day", async () => {
    const body = "step=checkout&market=IT&src=day";
    await receivePageView(database.db, beacon(body), now);
    await receivePageView(database.db, beacon(body), now);
    await receivePageView(database.db, beacon(body), new Date("2026-11-24T00:00:00Z"));
    expect((await rows()).filter((row) => row.includes("|checkout|IT|day="))).toEqual(["2026-11-23|checkout|IT|day=2", "2026-11-24|checkout|IT|day=1"]);
  });

  it("loses no view when many arrive at once", async () => {
    const body = "step=thank-you&market=DK&src=burst";
    const statuses = await Promise.all(Array.from({ length: 40 }, () => receivePageView(database.db, beacon(body), now)));
    expect(statuses.every((status) => status === 204)).toBe(true);
    expect((await rows()).filter((row) => row.includes("|thank-you|DK|burst="))).toEqual(["2026-11-23|thank-you|DK|burst=40"]);
  });
});

describe("parsePageView", () => {
  it("keeps exactly the step, the market and the variant", () => {
    expect(parsePageView("market=FI&step=thank-you&src=v10")).toEqual({ step: "thank-you", market: "FI", src: "v10" });
  });

  it("keeps the referring site's host and the landing path for the touch, and leaves out what is neither", () => {
    expect(parsePageView("step=offer&market=DE&src=&ref=news.example.org&land=/offer/de")).toEqual({ step: "offer", market: "DE", src: "", referrer: "news.example.org", landingPath: "/offer/de" });
    expect(parsePageView("step=offer&market=DE&src=&ref=a%20b&land=javascript:x")).toEqual({ step: "offer", market: "DE", src: "" });
  });
});
