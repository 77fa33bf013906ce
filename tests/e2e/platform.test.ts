import type { Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";
import { startServer, type RunningServer } from "./support/server";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 1280, height: 900 });
// The route module only (its hash is eight characters), not shared chunks such as checkout-link.
const checkoutModule = /\/assets\/checkout-[\w-]{8}\.js$/;
/** The offer's first bundle link leads to the checkout with that bundle and the funnel's query. */
const checkoutUrl = (locale: string, query: string) => new RegExp(`/checkout/${locale}\\?bundle=[a-z0-9-]+&${query}$`);

function recordDocuments(): string[] {
  const documents: string[] = [];
  session.page.on("request", (request: Request) => {
    if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname + new URL(request.url()).search);
  });
  return documents;
}

/** Visitors who save data get no prefetching, so a test controls when route modules load. */
async function withoutPrefetch() {
  await session.page.addInitScript(() => Object.defineProperty(navigator, "connection", { value: { saveData: true } }));
}

const buyLink = () => session.page.getByTestId("product-card").first().getByRole("link");

describe("new-build detection", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ BUILD_CHECK_INTERVAL_MS: "300" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("publishes latest.json with a one-second cache and the meta file for a year", async () => {
    const latest = await fetch(`${server.url}/builds/latest.json`);
    expect(latest.headers.get("cache-control")).toBe("public, max-age=1");
    const { id } = (await latest.json()) as { id: string };
    const meta = await fetch(`${server.url}/builds/meta/${id}.json`);
    expect(meta.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(((await meta.json()) as { prerendered: string[] }).prerendered).toContain("/offer/fr");
  });

  it("turns the next navigation into a full load of its target once a newer build is seen", async () => {
    let checks = 0;
    await session.page.route(/\/builds\/latest\.json\?\d+$/, async (route) => {
      checks += 1;
      await route.fulfill({ json: { id: "a-newer-build", timestamp: Date.now() } });
    });
    await openHydrated(session.page, `${server.url}/offer/fr?utm_source=mail`);
    const documents = recordDocuments();
    await expect.poll(() => checks, { timeout: 5000 }).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(checks).toBe(1); // polling stops after the first detection
    await buyLink().click();
    await session.page.waitForURL(checkoutUrl("fr", "utm_source=mail"));
    expect(documents).toEqual([expect.stringMatching(checkoutUrl("fr", "utm_source=mail"))]);
  });
});

describe("chunk-load failures", () => {
  it("load the navigation's target in full", async () => {
    await withoutPrefetch();
    let failed = false;
    await session.page.route(checkoutModule, async (route) => {
      if (failed) return route.continue();
      failed = true;
      await route.abort();
    });
    await openHydrated(session.page, `${baseUrl}/offer/de?src=v2`);
    const documents = recordDocuments();
    await buyLink().click();
    await session.page.waitForURL(checkoutUrl("de", "src=v2"));
    await session.page.waitForSelector("html[data-hydrated]");
    expect(documents).toEqual([expect.stringMatching(checkoutUrl("de", "src=v2"))]);
    expect(failed).toBe(true);
    expect(await session.page.locator("html").getAttribute("data-route")).toBe("checkout-2");
  });

  it("do nothing more when the same target failed within 10 seconds", async () => {
    await withoutPrefetch();
    await session.page.route(checkoutModule, (route) => route.abort());
    await openHydrated(session.page, `${baseUrl}/offer/it`);
    const target = await buyLink().getAttribute("href");
    await session.page.evaluate(
      (path) => sessionStorage.setItem("vitanor:chunk-reload", JSON.stringify({ path, expires: Date.now() + 10_000 })),
      target,
    );
    const documents = recordDocuments();
    await buyLink().click();
    await session.page.getByTestId("not-found").waitFor();
    expect(documents).toEqual([]);
  });
});

describe("prefetching", () => {
  it("loads a visible link's page code after the app is idle", async () => {
    const modules: string[] = [];
    session.page.on("request", (request) => {
      if (checkoutModule.test(request.url())) modules.push(request.url());
    });
    // Tall enough for the bundle cards' links to be visible without scrolling.
    await session.page.setViewportSize({ width: 1280, height: 2400 });
    await openHydrated(session.page, `${baseUrl}/offer/se`);
    await expect.poll(() => modules.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(await session.page.locator("html").getAttribute("data-route")).toBe("offer-2");
  });

  it("does not prefetch for visitors who save data", async () => {
    await withoutPrefetch();
    const modules: string[] = [];
    session.page.on("request", (request) => {
      if (checkoutModule.test(request.url())) modules.push(request.url());
    });
    await session.page.setViewportSize({ width: 1280, height: 2400 });
    await openHydrated(session.page, `${baseUrl}/offer/se`);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(modules).toEqual([]);
  });
});
