import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { localeCodes, markets } from "../../app/market/markets";

const baseUrl = inject("baseUrl");
const assetsDir = new URL("../../build/client/assets/", import.meta.url);
const clientScripts = readdirSync(assetsDir)
  .filter((name) => name.endsWith(".js"))
  .map((name) => readFileSync(new URL(name, assetsDir), "utf8"))
  .join("\n");

function messagesOf(locale: string): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`../../content/messages/${locale}.json`, import.meta.url), "utf8"));
}

async function html(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(baseUrl + path, { headers });
  return { status: response.status, body: await response.text() };
}

function documentAttributes(body: string) {
  const tag = /<html[^>]*>/.exec(body)?.[0] ?? "";
  const attribute = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];
  return { lang: attribute("lang"), country: attribute("data-country"), locale: attribute("data-locale") };
}

describe("the client build", () => {
  it.each(["currency_name", "emojiU", "alternate_names", "Bouvet Island", "Vatu"])(
    "carries no part of the country dataset (%s)",
    (marker) => {
      expect(clientScripts).not.toContain(marker);
    },
  );

  it.each(localeCodes)("carries no message of %s", (locale) => {
    expect(clientScripts).not.toContain(messagesOf(locale)["pages.offer.heading"]);
  });
});

describe.each(markets)("market $country", (market) => {
  it(`renders /offer/${market.routeValue} in ${market.languageTag}`, async () => {
    const { status, body } = await html(`/offer/${market.routeValue}`);
    expect(status).toBe(200);
    expect(documentAttributes(body)).toEqual({ lang: market.languageTag, country: market.country, locale: market.locale });
    const heading = messagesOf(market.locale)["pages.offer.heading"] as string;
    expect(body).toContain(heading.replace(/'/g, "&#x27;"));
    for (const other of localeCodes.filter((locale) => locale !== market.locale)) {
      expect(body, `${other}'s messages leaked`).not.toContain(messagesOf(other)["pages.offer.intro"]);
    }
  });

  it("links every market and x-default as alternates", async () => {
    const { body } = await html(`/offer/${market.routeValue}`);
    for (const other of markets) {
      expect(body).toContain(`<link rel="alternate" hrefLang="${other.languageTag}" href="https://www.vitanor.eu/offer/${other.routeValue}"/>`);
    }
    expect(body).toContain('<link rel="alternate" hrefLang="x-default" href="https://www.vitanor.eu/offer"/>');
  });

  it(`is chosen by the geo header ${market.country} on pages without a locale`, async () => {
    const { body } = await html("/offer", { "CF-IPCountry": market.country.toLowerCase() });
    expect(documentAttributes(body).country).toBe(market.country);
  });
});

describe("geo headers", () => {
  it.each([
    [{ "X-Vercel-IP-Country": "SE" }, "/take", "SE"],
    [{ "CloudFront-Viewer-Country": "France" }, "/take", "FR"],
    [{ "CF-IPCountry": "CH" }, "/v1ip", "CH-FR"],
    [{ "CF-IPCountry": "GB" }, "/offerV7", "FR"],
    [{ "CF-IPCountry": "BE" }, "/offerip", "BE"],
    [{ "CF-IPCountry": "<img src=x onerror=alert(1)>" }, "/take", "DE"],
    [{ "CF-IPCountry": "A".repeat(6000) }, "/take", "DE"],
  ])("%j on %s gives %s and is never echoed", async (headers, path, country) => {
    const { status, body } = await html(path, headers);
    expect(status).toBe(200);
    expect(documentAttributes(body).country).toBe(country);
    expect(body).not.toContain("onerror=alert");
    expect(body).not.toContain("AAAAAAAAAA");
  });
});
