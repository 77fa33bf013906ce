import { describe, expect, it } from "vitest";
import { geoPageOf, localePageOf } from "./geo-page.server";

describe("localePageOf", () => {
  it.each([
    ["/offer2/fr", { route: "offer2", geo: "FR", geoHeaders: [] }],
    ["/offer/de", { route: "offer", geo: "DE", geoHeaders: [] }],
    ["/OFFER/DE", { route: "offer", geo: "DE", geoHeaders: [] }],
    ["/fr", { route: "index", geo: "FR", geoHeaders: [] }],
    ["/get/gb", { route: "get", geo: "GB", geoHeaders: [] }],
    ["/offer", undefined],
    ["/offer/xx", undefined],
    ["/no-such-page/fr", undefined],
  ])("%s is %o", (pathname, page) => {
    expect(localePageOf(pathname)).toEqual(page);
    // Asked again, the remembered answer is the same.
    expect(localePageOf(pathname)).toEqual(page);
  });

  it("leaves paths without a locale to geoPageOf, and geoPageOf leaves paths with one", () => {
    expect(geoPageOf("/offer2", () => "FR")?.route).toBe("offer2");
    expect(geoPageOf("/offer2/fr", () => "FR")).toBeUndefined();
  });
});
