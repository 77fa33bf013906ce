import { describe, expect, it } from "vitest";
import { applySpecialOfferRule, geoCountry, resolveCountry } from "./country-resolution";
import { markets, type CountryCode } from "./markets";

const headers = (entries: Record<string, string>) => new Headers(entries);

describe("resolveCountry", () => {
  it.each(markets.map((market) => [market.routeValue, market.country]))(
    "route locale %s selects %s, whatever the geo header says",
    (routeValue, country) => {
      const result = resolveCountry({ localeParam: routeValue, pathname: `/offer/${routeValue}`, headers: headers({ "CF-IPCountry": "IT" }) });
      expect(result).toEqual({ geo: "IT", country });
    },
  );

  it.each([
    [{ "CF-IPCountry": "FR" }, "FR"],
    [{ "cf-ipcountry": "gb" }, "GB"],
    [{ "X-Vercel-IP-Country": "SE" }, "SE"],
    [{ "CloudFront-Viewer-Country": "dk" }, "DK"],
    [{ "X-Country-Code": "ch-fr" }, "CH-FR"],
    [{ "X-Country-Code": "IT", "CF-IPCountry": "ES" }, "ES"],
    [{ "CF-IPCountry": "US" }, "DE"],
    [{ "CF-IPCountry": "XX", "X-Country-Code": "FR" }, "DE"],
    [{ "CF-IPCountry": "<script>alert(1)</script>" }, "DE"],
    [{ "CF-IPCountry": "F".repeat(5000) }, "DE"],
    [{}, "DE"],
  ] as const)("geo headers %j give %s", (entries, country) => {
    expect(resolveCountry({ localeParam: undefined, pathname: "/offer", headers: headers(entries) }).country).toBe(country);
  });

  it.each([
    ["France", "FR"],
    ["Switzerland", "CH"],
    ["United Kingdom", "GB"],
    ["Brazil", "DE"],
    ["Nowhere", "DE"],
  ])("a geo header naming %s gives %s through the name lookup", (name, country) => {
    const lookup = (value: string) => ({ France: "FR", Switzerland: "CH", "United Kingdom": "GB", Brazil: "BR" })[value];
    expect(geoCountry(headers({ "CF-IPCountry": name }), ["CF-IPCountry"], lookup)).toBe(country);
  });

  it("reads a configured header list in its order", () => {
    const h = headers({ "X-Geo": "fi", "CF-IPCountry": "FR" });
    expect(geoCountry(h, ["X-Geo", "CF-IPCountry"])).toBe("FI");
  });
});

describe("special-offer rule", () => {
  const paths = ["/v1ip", "/v1ip/de", "/v1ip-summary", "/offerip/gb", "/v7", "/offerV7/it", "/OFFERV7"];
  const cases: [CountryCode, CountryCode][] = [
    ["CH", "CH-FR"], ["CH-FR", "CH-FR"], ["BE", "BE"], ["DE", "FR"], ["GB", "FR"], ["FR", "FR"], ["IT", "FR"], ["SE", "FR"],
  ];
  it.each(paths.flatMap((path) => cases.map(([from, to]) => [path, from, to])))("on %s %s becomes %s", (path, from, to) => {
    expect(applySpecialOfferRule(from as CountryCode, path as string)).toBe(to);
  });

  it.each(["/v1", "/v10", "/offer", "/offerV4", "/v71", "/summary"])("does not apply on %s", (path) => {
    expect(applySpecialOfferRule("DE", path)).toBe("DE");
  });

  it("applies after the route locale", () => {
    expect(resolveCountry({ localeParam: "ch", pathname: "/offerip/ch", headers: headers({}) }).country).toBe("CH-FR");
    expect(resolveCountry({ localeParam: "gb", pathname: "/offerip/gb", headers: headers({}) }).country).toBe("FR");
  });
});
