import { describe, expect, it } from "vitest";
import { checkNavigationTarget, isExternalUrl } from "./navigation";

describe("checkNavigationTarget", () => {
  it.each(["/offer", "/offer/fr?src=v2", "#products", "offer", "?step=bundle"])("allows in-app %s", (url) => {
    expect(checkNavigationTarget(url)).toBe(url);
  });

  it.each(["https://example.com", "//example.com/x", "mailto:help@example.com", "HTTP://x.y"])(
    "refuses external %s by default",
    (url) => {
      expect(isExternalUrl(url)).toBe(true);
      expect(() => checkNavigationTarget(url)).toThrow("Navigating to an external URL is not allowed by default");
      expect(checkNavigationTarget(url, { external: true })).toBe(url);
    },
  );

  it.each(["javascript:alert(1)", " JavaScript:void(0)", "data:text/html,x", "vbscript:x"])(
    "always refuses %s",
    (url) => {
      expect(() => checkNavigationTarget(url, { external: true })).toThrow("never allowed");
    },
  );
});
