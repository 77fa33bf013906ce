import { request as httpRequest } from "node:http";
import { describe, expect, inject, it } from "vitest";
import { routeEntries } from "../../app/funnel/route-table";

const baseUrl = inject("baseUrl");
const sampleLocales = ["fr", "gb", "ch-fr", "se", "IT"];

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(baseUrl + path, { headers, redirect: "manual" });
  return { response, body: await response.text() };
}

function htmlAttribute(body: string, name: string): string | undefined {
  return new RegExp(`<html[^>]*\\b${name}="([^"]*)"`).exec(body)?.[1];
}

// The review form opens only through an invitation's link; without one it explains that (below).
const pageRequests = routeEntries.filter((entry) => entry.page !== "review").flatMap((entry) => {
  if (entry.param === "locale") return sampleLocales.map((locale) => [entry.pattern.replace(":locale", locale), entry] as const);
  if (entry.param === "from") return [[entry.pattern.replace(":from", "upsell"), entry] as const];
  return [[entry.pattern, entry] as const];
});

describe("every route", () => {
  it.each([
    ["/reviews/fr/shape", 200, "null"],
    ["/reviews/at", 200, '{"overall":null,"products":{},"policyLink":{"href":"/review-policy/at","label":"So prüfen wir Bewertungen"}}'],
    ["/reviews/fr/no-such-product", 404, '{"error":"unknown product"}'],
  ])("%s answers %i with the published reviews as JSON", async (path, status, body) => {
    const answer = await get(path);
    expect(answer.response.status).toBe(status);
    expect(answer.response.headers.get("content-type")).toContain("application/json");
    expect(answer.body).toBe(body);
  });

  it("/reviews/xx/shape answers 404 for an unknown market", async () => {
    expect((await get("/reviews/xx/shape")).response.status).toBe(404);
  });

  // PostgreSQL (and PGlite) refuse to compare a malformed uuid with a uuid column: that must be a 404, not a 500.
  it.each(["/checkout-return/------------------------------------", "/checkout-return/0b9f2a52-7d1e-4c1a-9d55-3f1e2a6b7c8", "/checkout-return/00000000-0000-0000-0000-000000000000"])(
    "%s answers 404 for a payment it does not know",
    async (path) => {
      expect((await get(path)).response.status).toBe(404);
    },
  );

  it.each(["/review", "/review/fr", "/review/de?invitation=0b9f2a52-7d1e-4c1a-9d55-3f1e2a6b7c8d.abc"])("%s without a valid invitation answers 404 and says why", async (path) => {
    const { response, body } = await get(path);
    expect(response.status).toBe(404);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(htmlAttribute(body, "data-route")).toMatch(/^review(-2)?$/);
    expect(body).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
    expect(body).toContain('data-testid="review-link-closed"');
  });


  it.each(pageRequests)("%s answers 200 with its route name and layout", async (path, entry) => {
    const { response, body } = await get(path);
    expect(response.status).toBe(200);
    expect(htmlAttribute(body, "data-route")).toBe(entry.name);
    expect(htmlAttribute(body, "data-layout")).toBe(entry.layout);
    expect(body).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
  });
});

describe("locale guard", () => {
  it.each(["/offer/xx", "/xx", "/thankyou/de_DE", "/summary/usa", "/get/fr-fr", "/v1/%3Cscript%3E"])(
    "%s answers 404 'Page not found'",
    async (path) => {
      const { response, body } = await get(path);
      expect(response.status).toBe(404);
      expect(body).toContain('data-testid="not-found"');
      expect(body).toContain("Page not found");
      expect(body).not.toContain("<script>alert");
    },
  );

  it("keeps the query string on the try-today button", async () => {
    const { body } = await get("/offer/xx?utm_source=fb&src=v2");
    const button = /<a[^>]*data-testid="try-today"[^>]*>/.exec(body)?.[0];
    expect(button).toContain('href="/offer?utm_source=fb&amp;src=v2"');
  });
});

describe("unmatched URLs", () => {
  it.each(["/offer/fr/extra", "/offerthanks/fr", "/does/not/exist", "/paypal-confirm/a/b"])(
    "%s answers 404 naming the path",
    async (path) => {
      const { response, body } = await get(path);
      expect(response.status).toBe(404);
      expect(body).toContain(`Page Not Found: ${path}`);
      expect(body).toContain('data-testid="try-today"');
    },
  );

  it.each([
    ["/offer/%E0%A4%A", 400],
    ["/%", 400],
    ["/offer/%00", 400],
    [`/${"a".repeat(400)}`, 414],
    [`/offer?utm=${"a".repeat(5000)}`, 414],
  ])("malformed %s answers %i", async (path, status) => {
    const { response, body } = await get(path);
    expect(response.status).toBe(status);
    expect(body).toContain("<h1>");
  });
});

describe("serving", () => {
  it("serves a prerendered page and its data without a redirect", async () => {
    const page = await get("/offer/fr");
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    const data = await get("/offer/fr.data");
    expect(data.response.status).toBe(200);
  });

  it("sends security headers and a CSP without unsafe-inline", async () => {
    for (const path of ["/offer/fr", "/offer", "/nope/nope/nope"]) {
      const { response } = await get(path);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy).toMatch(/script-src 'self' '(nonce|sha256)-/);
      expect(policy).not.toContain("unsafe-inline");
    }
  });

  it("caches hashed assets for a year and compresses them", async () => {
    const { body } = await get("/offer/fr");
    const asset = /\/assets\/[\w.-]+\.js/.exec(body)?.[0];
    expect(asset).toBeDefined();
    const { response } = await get(asset as string, { "Accept-Encoding": "br, gzip" });
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-encoding")).toMatch(/^(br|gzip)$/);
    expect((await get("/assets/missing-123.js")).response.status).toBe(404);
  });

  it("varies pages without a locale on the geo header", async () => {
    const { response } = await get("/offer", { "CF-IPCountry": "GB" });
    expect(response.headers.get("vary")).toContain("CF-IPCountry");
  });

  it.each([
    ["TRACE", "/offer"],
    ["PUT", "/checkout/de"],
    ["DELETE", "/refund/fr"],
    ["POST", "/checkout-return/00000000-0000-0000-0000-000000000000"],
  ])("answers %s %s with 405, never a server error", async (method, path) => {
    // Through node:http: fetch refuses to send TRACE at all.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = httpRequest(baseUrl + path, { method }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on("error", reject);
      request.end();
    });
    expect(status).toBe(405);
  });

  it("answers the health check and has a favicon", async () => {
    const health = await get("/healthz");
    expect(health.response.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
    expect((await get("/favicon.svg")).response.headers.get("content-type")).toContain("image/svg+xml");
  });

  it("links a lower-case canonical URL for an upper-case locale", async () => {
    const { response, body } = await get("/offer/FR");
    expect(response.status).toBe(200);
    expect(body).toContain('<link rel="canonical" href="https://www.vitanor.eu/offer/fr"/>');
  });
});
