import { describe, expect, it } from "vitest";
import { createRouteMatcher, normalisedPath, pagePathOf, routeForLog, type ManifestRoute } from "./route-patterns";

/** The shape of the server build's manifest: a root, a pathless layout, plain routes and their twins. */
const manifest: Record<string, ManifestRoute> = {
  root: { id: "root", path: "", module: {} },
  "layout-default": { id: "layout-default", parentId: "root", module: {} },
  index: { id: "index", parentId: "layout-default", path: "/", module: {} },
  "index-2": { id: "index-2", parentId: "layout-default", path: "/:locale", module: {} },
  checkout: { id: "checkout", parentId: "layout-default", path: "/checkout", module: { action: () => null } },
  "checkout-2": { id: "checkout-2", parentId: "layout-default", path: "/checkout/:locale", module: { action: () => null } },
  upsellMind: { id: "upsellMind", parentId: "layout-default", path: "/upsellMind", module: { action: () => null } },
  "test-gateway": { id: "test-gateway", parentId: "root", path: "test-gateway/:step/:charge", module: { action: () => null } },
  "funnel-view": { id: "funnel-view", parentId: "root", path: "funnel-view", module: { action: () => null } },
  "welcome-code": { id: "welcome-code", parentId: "root", path: "welcome-code", module: { action: () => null } },
  "not-found": { id: "not-found", parentId: "root", path: "*", module: {} },
};

describe("createRouteMatcher", () => {
  const match = createRouteMatcher(manifest);

  it.each([
    ["/", "index", "/"],
    ["/fr", "index-2", "/:locale"],
    ["/checkout", "checkout", "/checkout"],
    ["/checkout/", "checkout", "/checkout"],
    ["/checkout/de", "checkout-2", "/checkout/:locale"],
    ["/CHECKOUT/de", "checkout-2", "/checkout/:locale"],
    ["/upsellmind", "upsellMind", "/upsellMind"],
    ["/test-gateway/authenticate/ch_123", "test-gateway", "/test-gateway/:step/:charge"],
    ["/funnel-view", "funnel-view", "/funnel-view"],
    ["/welcome-code", "welcome-code", "/welcome-code"],
    ["/no/such/page", "not-found", "/*"],
    ["/checkout/de/more", "not-found", "/*"],
  ])("%s is %s (%s)", (path, id, pattern) => {
    expect(match(path)).toMatchObject({ id, pattern });
  });

  it("knows which routes take posts", () => {
    expect(match("/checkout/fr")?.hasAction).toBe(true);
    expect(match("/fr")?.hasAction).toBe(false);
  });
});

describe("pagePathOf", () => {
  it.each([
    ["/checkout/fr.data", "/checkout/fr", true],
    ["/_root.data", "/", true],
    ["/offer/fr", "/offer/fr", false],
  ])("%s", (pathname, path, data) => {
    expect(pagePathOf(pathname)).toEqual({ path, data });
  });
});

describe("normalisedPath", () => {
  it.each([
    ["/admin/orders", "/admin/orders"],
    ["/admin/orders/VN-7K3M-Q9XD", "/admin/orders/:number"],
    ["/admin/orders/VN-7K3M-Q9XD/refund", "/admin/orders/:number/refund"],
    // About one order number in fourteen has no digit: it is no plain word for all that.
    ["/admin/orders/VN-KMQX-HJRT", "/admin/orders/:number"],
    ["/admin/orders/VN-KMQX-HJRT/parcels", "/admin/orders/:number/parcels"],
    ["/admin/orders/vn-kmqx-hjrt", "/admin/orders/:number"],
    ["/admin/orders/VNKMQXHJRT", "/admin/orders/:number"],
    ["/admin/customers/anna%40example.com", "/admin/customers/:id"],
    ["/favicon.svg", "/favicon.svg"],
    ["/images/hero-640.webp", "/images/:id"],
    ["/", "/"],
  ])("%s is logged as %s", (path, normalised) => {
    expect(normalisedPath(path)).toBe(normalised);
  });
});

/** The back office's paths as the server build names them (`backOfficePaths`). */
const backOfficePaths = ["/admin", "/admin/login", "/admin/logout", "/admin/admin.css", "/admin/orders", "/admin/orders/:number", "/admin/orders/:number/refund", "/admin/files", "/admin/files/:id", "/admin/experiments/:key/ship", "/admin/fulfilment.csv"];

describe("routeForLog", () => {
  const routeOf = routeForLog(createRouteMatcher(manifest), backOfficePaths);

  it.each([
    ["/checkout/fr", 200, "/checkout/:locale"],
    ["/checkout/fr.data", 200, "/checkout/:locale.data"],
    ["/assets/entry.client-abc123.js", 200, "/assets/*"],
    ["/builds/latest.json", 200, "/builds/*"],
    ["/healthz", 200, "/healthz"],
    ["/favicon.svg", 200, "/favicon.svg"],
    ["/admin/orders/VN-7K3M-Q9XD", 200, "/admin/orders/:number"],
    ["/admin/orders/VN-WXYZ-ABCD", 200, "/admin/orders/:number"],
    ["/admin/orders/VN-WXYZ-ABCD", 404, "/admin/orders/:number"],
    // Typed by hand: an order number without its prefix, or any other segment, is never written as typed.
    ["/admin/orders/KMQXHJRT", 404, "/admin/orders/:number"],
    ["/admin/orders/kmqxhjrt/refund", 200, "/admin/orders/:number/refund"],
    ["/admin/orders/anna.muster@example.com", 404, "/admin/orders/:number"],
    ["/admin/files/12", 200, "/admin/files/:id"],
    ["/admin/experiments/k3j9x2ab/ship", 303, "/admin/experiments/:key/ship"],
    ["/admin/fulfilment.csv", 200, "/admin/fulfilment.csv"],
    ["/admin/", 302, "/admin"],
    ["/admin/login", 200, "/admin/login"],
    ["/admin/customers/KMQXHJRT", 404, "/admin/*"],
    ["/admin/orders/KMQXHJRT/nonsense/anna", 404, "/admin/*"],
    // An address nobody serves is never written as typed: it may be anything.
    ["/anna.muster@example.com", 404, "*"],
    ["/no/such/page", 404, "*"],
    ["/wp-login.php", 404, "*"],
  ])("%s (%i) is logged as %s", (path, status, route) => {
    expect(routeOf(path, status)).toBe(route);
  });
});
