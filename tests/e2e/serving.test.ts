import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";
import { startServer, type RunningServer } from "./support/server";

const baseUrl = inject("baseUrl");

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as sent, still encoded. */
  body: Buffer;
}

/** A request whose answer is not decoded (fetch would undo Content-Encoding). */
function raw(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(answer.body);
  if (encoding === "gzip") return gunzipSync(answer.body);
  expect(encoding).toBeUndefined();
  return answer.body;
}

const varyOf = (answer: RawAnswer) => (answer.headers.vary ?? "").split(",").map((field) => field.trim().toLowerCase());

/** Each encoding decodes to the identity body, with its own length, tag and `Vary`. */
async function expectEncodings(url: string, headers: Record<string, string> = {}): Promise<Record<"identity" | "br" | "gzip", RawAnswer>> {
  const answers = {
    identity: await raw(url, headers),
    br: await raw(url, { ...headers, "Accept-Encoding": "gzip, deflate, br, zstd" }),
    gzip: await raw(url, { ...headers, "Accept-Encoding": "gzip" }),
  };
  expect(answers.identity.headers["content-encoding"]).toBeUndefined();
  expect(answers.br.headers["content-encoding"]).toBe("br");
  expect(answers.gzip.headers["content-encoding"]).toBe("gzip");
  for (const answer of Object.values(answers)) {
    expect(answer.status).toBe(200);
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
    expect(decoded(answer).equals(answers.identity.body)).toBe(true);
    expect(varyOf(answer)).toContain("accept-encoding");
  }
  expect(answers.br.body.length).toBeLessThan(answers.gzip.body.length);
  expect(answers.gzip.body.length).toBeLessThan(answers.identity.body.length);
  const tags = Object.values(answers).map((answer) => answer.headers.etag?.replace(/^W\//, ""));
  expect(new Set(tags).size).toBe(3);
  expect(tags[1]).toBe(tags[0]?.replace(/"$/, '-br"'));
  expect(tags[2]).toBe(tags[0]?.replace(/"$/, '-gz"'));
  return answers;
}

async function firstScriptAsset(): Promise<string> {
  const html = await (await fetch(`${baseUrl}/offer/fr`)).text();
  const asset = /\/assets\/[\w.-]+\.js/.exec(html)?.[0];
  if (!asset) throw new Error("No script in /offer/fr");
  return asset;
}

describe("precompressed files", () => {
  it.each([
    ["a prerendered page", "/offer/fr"],
    ["a prerendered page's data", "/offer/fr.data"],
  ])("sends %s in Brotli, gzip or as it is, by Accept-Encoding", async (_, path) => {
    const answers = await expectEncodings(`${baseUrl}${path}`);
    expect(answers.br.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
  });

  it("sends a hashed script in each encoding, cached for a year", async () => {
    const answers = await expectEncodings(`${baseUrl}${await firstScriptAsset()}`);
    expect(answers.br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(answers.br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("sends images that are compressed already as they are", async () => {
    const html = await (await fetch(`${baseUrl}/offer/fr`)).text();
    const image = /\/assets\/images\/[\w/.-]+\.webp/.exec(html)?.[0];
    expect(image).toBeDefined();
    const answer = await raw(`${baseUrl}${image}`, { "Accept-Encoding": "gzip, br" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("image/webp");
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
  });

  it.each([
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0.5, br;q=0.4", "gzip"],
    ["*", "br"],
    ["identity", undefined],
    ["br;q=0, gzip;q=0", undefined],
    ["nonsense;;q=x", undefined],
  ])("honours Accept-Encoding %j", async (acceptEncoding, expected) => {
    const answer = await raw(`${baseUrl}/offer/fr`, { "Accept-Encoding": acceptEncoding });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe(expected);
  });

  it("answers If-None-Match with 304 for the tag of the encoding sent, weak or in a list", async () => {
    const url = `${baseUrl}/offer/fr`;
    const br = { "Accept-Encoding": "br" };
    const first = await raw(url, br);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^"[\w-]+-br"$/);
    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, "*"]) {
      const again = await raw(url, { ...br, "If-None-Match": ifNoneMatch });
      expect(again.status, ifNoneMatch).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(tag);
    }
    // The Brotli tag does not validate the uncompressed page, nor a changed one.
    expect((await raw(url, { "If-None-Match": tag })).status).toBe(200);
    expect((await raw(url, { ...br, "If-None-Match": '"something-else"' })).status).toBe(200);
  });

  it("answers HEAD with the headers of GET and no body", async () => {
    for (const path of ["/offer/fr", "/offer/fr.data", await firstScriptAsset()]) {
      const get = await raw(`${baseUrl}${path}`, { "Accept-Encoding": "br" });
      const head = await raw(`${baseUrl}${path}`, { "Accept-Encoding": "br" }, "HEAD");
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of ["content-length", "content-encoding", "etag", "content-type", "vary"]) expect(head.headers[name], name).toBe(get.headers[name]);
    }
  });

  it("never serves the twin files at their own address", async () => {
    const asset = await firstScriptAsset();
    expect((await raw(`${baseUrl}${asset}.br`)).status).toBe(404);
    expect((await raw(`${baseUrl}${asset}.gz`)).status).toBe(404);
    const twin = await raw(`${baseUrl}/offer/fr/index.html.br`);
    expect(twin.headers["content-type"]).not.toMatch(/brotli|octet/);
  });
});

describe("pages rendered per request", () => {
  it("are compressed on the fly, streamed", async () => {
    const answer = await raw(`${baseUrl}/checkout/fr?bundle=shape-3`, { "Accept-Encoding": "gzip, br" });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(decoded(answer).toString("utf8")).toContain("</html>");
  });
});

const fr = { "CF-IPCountry": "FR" };

describe("the geo page cache", () => {
  it("renders a geo page once and serves it again from the cache, in each encoding", async () => {
    const url = `${baseUrl}/offer?src=cache-a`;
    const first = await raw(url, fr);
    expect(first.status).toBe(200);
    expect(first.headers["x-cache"]).toBe("miss");
    const second = await raw(url, fr);
    expect(second.headers["x-cache"]).toBe("hit");
    expect(second.body.equals(first.body)).toBe(true);
    const answers = await expectEncodings(url, fr);
    expect(answers.br.headers["x-cache"]).toBe("hit");
    expect(varyOf(answers.br)).toEqual(expect.arrayContaining(["cf-ipcountry", "accept-encoding"]));
    expect(answers.br.headers["cache-control"]).toBe("private, no-cache");
    expect(first.body.toString("utf8")).toContain('data-country="FR"');
    expect(first.body.toString("utf8")).not.toMatch(/\snonce=/);
    expect(answers.br.headers["content-security-policy"]).toMatch(/script-src 'self' 'sha256-/);
    expect(answers.br.headers["content-security-policy"]).not.toContain("nonce");
  });

  it("stores quick twins with weak tags, and the smallest ones once the page is asked for again", async () => {
    const url = `${baseUrl}/offer?src=cache-levels`;
    const br = { ...fr, "Accept-Encoding": "br" };
    const stored = await raw(url, br);
    expect(stored.headers["x-cache"]).toBe("miss");
    expect(stored.headers.etag).toMatch(/^W\/"[\w-]+-br"$/);
    await expect.poll(async () => (await raw(url, br)).headers.etag, { timeout: 5_000 }).toBe(stored.headers.etag?.slice(2));
    const final = await raw(url, br);
    expect(final.body.length).toBeLessThan(stored.body.length);
    expect(decoded(final).equals(decoded(stored))).toBe(true);
    // A browser holding the quick version revalidates it: the same content.
    expect((await raw(url, { ...br, "If-None-Match": stored.headers.etag as string })).status).toBe(304);
  });

  it("keeps one entry per market, path and query", async () => {
    const path = `${baseUrl}/take?src=cache-b`;
    expect((await raw(path, fr)).headers["x-cache"]).toBe("miss");
    // Another header naming the same market, and a country without a market of its own that
    // shows the default one, share the entries of their markets.
    expect((await raw(path, { "X-Country-Code": "fr" })).headers["x-cache"]).toBe("hit");
    const germany = await raw(path, { "CF-IPCountry": "DE" });
    expect(germany.headers["x-cache"]).toBe("miss");
    expect(germany.body.toString("utf8")).toContain('data-country="DE"');
    expect((await raw(path, { "CF-IPCountry": "US" })).headers["x-cache"]).toBe("hit");
    expect((await raw(`${baseUrl}/take?src=cache-c`, fr)).headers["x-cache"]).toBe("miss");
    expect((await raw(`${baseUrl}/TAKE?src=cache-b`, fr)).headers["x-cache"]).toBe("miss");
  });

  it("renders queries with other parameters (click ids, addresses) per request", async () => {
    const answer = await raw(`${baseUrl}/offer?src=v2&fbclid=abc123`, fr);
    expect(answer.status).toBe(200);
    expect(answer.headers["x-cache"]).toBeUndefined();
    expect(answer.headers["content-security-policy"]).toContain("'nonce-");
  });

  it("caches the data of geo pages too, and answers If-None-Match and HEAD from it", async () => {
    const url = `${baseUrl}/summary.data?src=cache-d`;
    expect((await raw(url, fr)).headers["x-cache"]).toBe("miss");
    const answers = await expectEncodings(url, fr);
    expect(answers.gzip.headers["x-cache"]).toBe("hit");
    const notModified = await raw(url, { ...fr, "Accept-Encoding": "gzip", "If-None-Match": answers.gzip.headers.etag as string });
    expect(notModified.status).toBe(304);
    const head = await raw(url, { ...fr, "Accept-Encoding": "br" }, "HEAD");
    expect(head.body.length).toBe(0);
    // The hits above have the entry recompressed at the highest levels in the background, so its
    // Brotli twin may be swapped for a smaller one (with a strong tag instead of a weak one) at any
    // moment. It changes once, never back: the HEAD matches the GET before it or the one after it
    // that carries its tag.
    const after = await raw(url, { ...fr, "Accept-Encoding": "br" });
    const sameTwin = [answers.br, after].find((answer) => answer.headers.etag === head.headers.etag);
    expect(sameTwin, `no GET carries the HEAD's tag ${head.headers.etag}`).toBeDefined();
    expect(head.headers["content-length"]).toBe(sameTwin?.headers["content-length"]);
  });

  it("cannot be asked from outside for a render without a nonce", async () => {
    const checkout = await raw(`${baseUrl}/checkout/fr?bundle=shape-3`, { "X-Storefront-Cached-Render": "1", "X-React-Router-Prerender": "1" });
    expect(checkout.headers["content-security-policy"]).toContain("'nonce-");
    expect(checkout.body.toString("utf8")).toMatch(/<script nonce="/);
  });
});

describe("pages with personal data", () => {
  async function placeOrder(): Promise<string> {
    const shown = await fetch(`${baseUrl}/checkout/de?bundle=shape-3`);
  // The form's token counts only with the cookie the page set for this browser.
  const checkoutCookie = /vn_checkout=[^;]+/.exec(shown.headers.get("set-cookie") ?? "")?.[0] ?? "";
  const page = await shown.text();
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? "";
    const form = new URLSearchParams({
      email: "cache.test@example.com",
      givenName: "Cache",
      familyName: "Probe",
      addressLine1: "Hauptstraße 5",
      postalCode: "10115",
      city: "Berlin",
      country: "DE",
      method: "card",
      cardNumber: "4242 4242 4242 4242",
      cardExpiry: "12/30",
      cardCvc: "123",
      bundle: "shape-3",
      token,
    });
    const response = await fetch(`${baseUrl}/checkout/de?bundle=shape-3`, { method: "POST", body: form, redirect: "manual", headers: { Cookie: checkoutCookie } });
    expect(response.status).toBe(303);
    const cookie = /vn_order=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
    expect(cookie).toBeDefined();
    return cookie as string;
  }

  let cookie = "";
  beforeAll(async () => {
    cookie = await placeOrder();
  });

  it("are never cached: a buyer's own upsell, thank-you and checkout stay private, no-store", async () => {
    for (const path of ["/upsell?src=cache-p", "/thankyou", "/offerthanks", "/checkout?bundle=shape-3", "/upsell/de", "/thankyou/de"]) {
      for (let round = 0; round < 2; round++) {
        const answer = await raw(`${baseUrl}${path}`, { ...fr, Cookie: cookie });
        expect(answer.status, path).toBe(200);
        expect(answer.headers["x-cache"], path).toBeUndefined();
        expect(answer.headers["cache-control"], path).toBe("private, no-store");
      }
    }
    const thankYou = (await raw(`${baseUrl}/thankyou`, { ...fr, Cookie: cookie })).body.toString("utf8");
    expect(thankYou).toContain("Hauptstraße 5");
  });

  it("leave nothing of the buyer in the shared upsell page", async () => {
    const shared = await raw(`${baseUrl}/upsell?src=cache-p`, fr);
    // The buyer's visits above were not stored: this is the first render for everyone.
    expect(shared.headers["x-cache"]).toBe("miss");
    expect((await raw(`${baseUrl}/upsell?src=cache-p`, fr)).headers["x-cache"]).toBe("hit");
    expect(shared.body.toString("utf8")).not.toContain("Probe");
    // With the cookie, the buyer still gets their own page, not the cached one.
    const own = await raw(`${baseUrl}/upsell?src=cache-p`, { ...fr, Cookie: cookie });
    expect(own.headers["x-cache"]).toBeUndefined();
    expect(own.headers["cache-control"]).toBe("private, no-store");
  });
});

describe("the page cache's budget", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ PAGE_CACHE_MB: "0.2" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("evicts the least recently used pages once PAGE_CACHE_MB is full", async () => {
    const offerRoutes = ["offer", "take", "buy", "get", "1get", "6offer", "offerback", "offerbuy", "offercoll", "offerg", "offericons", "offerup"];
    const first = `${server.url}/${offerRoutes[0]}`;
    expect((await raw(first, fr)).headers["x-cache"]).toBe("miss");
    expect((await raw(first, fr)).headers["x-cache"]).toBe("hit");
    for (const route of offerRoutes.slice(1)) expect((await raw(`${server.url}/${route}`, fr)).headers["x-cache"]).toBe("miss");
    // The latest page is still there; the first, least recently used, has made room.
    expect((await raw(`${server.url}/${offerRoutes.at(-1)}`, fr)).headers["x-cache"]).toBe("hit");
    expect((await raw(first, fr)).headers["x-cache"]).toBe("miss");
  });
});

describe("a cached page in the browser", () => {
  const session = openPageSession({ width: 1280, height: 900 });

  it("hydrates under its hash-based policy without a CSP error", async () => {
    const url = `${baseUrl}/offer?src=cache-browser`;
    // Fill the cache, so that the browser gets the stored document.
    expect((await raw(url)).headers["x-cache"]).toBe("miss");
    const response = await session.page.goto(url);
    expect(response?.headers()["x-cache"]).toBe("hit");
    expect(response?.headers()["content-encoding"]).toBe("br");
    await session.page.waitForSelector("html[data-hydrated]");
    // Another geo page, rendered for the cache by this visit.
    await openHydrated(session.page, `${baseUrl}/summary?src=cache-browser`);
    expect(session.problems).toEqual([]);
  });
});
