import { describe, expect, it } from "vitest";
import { routePath, withQuery } from "./paths";

describe("routePath", () => {
  it.each([
    ["index", [], "/"],
    ["index-2", ["fr"], "/fr"],
    ["offer", [], "/offer"],
    ["offer-2", ["ch-fr"], "/offer/ch-fr"],
    ["get", [], "/get"],
    ["get2", ["de"], "/get/de"],
    ["offerV4-2", ["at"], "/offerV4/at"],
    ["terms-2", ["gb"], "/terms/gb"],
    ["offerthanks", [], "/offerthanks"],
  ] as const)("%s %j is %s", (name, args, expected) => {
    expect(routePath(name, ...(args as unknown as []))).toBe(expected);
  });

  it("refuses a twin without its parameter", () => {
    expect(() => routePath("offer-2" as "offer", ...([] as []))).toThrow("needs its :locale");
  });
});

describe("withQuery", () => {
  it.each([
    ["/offer", "", "/offer"],
    ["/offer", "?utm_source=fb&src=v2", "/offer?utm_source=fb&src=v2"],
    ["/offer?step=bundle", "?src=v2", "/offer?step=bundle&src=v2"],
    ["/offer?src=v3", "?src=v2&utm_medium=cpc", "/offer?src=v3&utm_medium=cpc"],
    ["/offer#products", "?utm_source=fb", "/offer?utm_source=fb#products"],
    ["/terms/fr", "?q=a%20b", "/terms/fr?q=a+b"],
  ])("%s with %s is %s", (target, search, expected) => {
    expect(withQuery(target, search)).toBe(expected);
  });
});
