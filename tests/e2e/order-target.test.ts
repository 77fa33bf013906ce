import { describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");

/**
 * The order-now button's targets (decision 41), row by row, as the server renders its link. Pages
 * with a locale are prerendered without the visitor's query, so their links gain it once hydrated (the
 * browser test checks that); the rows without a locale show it already in the server's HTML.
 */
describe("order-now targets in the rendered page", () => {
  it.each([
    ["/", { "CF-IPCountry": "SE" }, "/take/se"],
    ["/?utm_source=x", { "CF-IPCountry": "IT" }, "/take/it?utm_source=x"],
    ["/summary?src=v2", { "CF-IPCountry": "GB" }, "/offer2/gb?src=v2"],
    ["/summary?src=v3", { "CF-IPCountry": "FR" }, "/get/fr?src=v3"],
    ["/summary?src=v4", { "CF-IPCountry": "FR" }, "/offerV4/fr?src=v4"],
    ["/summary?src=v31", { "CF-IPCountry": "FR" }, "/1get/fr?src=v31"],
    ["/summary?src=v1a", { "CF-IPCountry": "FR" }, "/offera/fr?src=v1a"],
    ["/summary?src=v6", { "CF-IPCountry": "FR" }, "/6offer/fr?src=v6"],
    ["/summary?src=v7", { "CF-IPCountry": "FR" }, "/offerV7/fr?src=v7"],
    ["/summary?src=v8", { "CF-IPCountry": "FR" }, "/v8offer/fr?src=v8"],
    ["/summary?src=v9", { "CF-IPCountry": "FR" }, "/offerrecom/fr?src=v9"],
    ["/summary?src=v10", { "CF-IPCountry": "FR" }, "/lionoffer/fr?src=v10"],
    ["/summary?src=vsalt", { "CF-IPCountry": "FR" }, "/offersalt/fr?src=vsalt"],
    ["/summary?src=v5", { "CF-IPCountry": "FR" }, "/offer2?src=v5"],
    ["/summary", {}, "/offer2"],
    ["/v1ip-summary/ch", {}, "/offerip/ch-fr"],
    ["/v1ip-summary/de", {}, "/offerip/fr"],
    ["/summarypop/fr", {}, "/summarypop/fr?step=bundle"],
  ])("%s %j → %s", async (path, headers, target) => {
    const body = await (await fetch(baseUrl + path, { headers })).text();
    const button = /<a[^>]*data-testid="order-now"[^>]*>/.exec(body)?.[0] ?? "";
    expect(button).toContain(`href="${target.replace(/&/g, "&amp;")}"`);
  });
});
