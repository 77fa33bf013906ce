import { describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 390, height: 844 });

const viewports = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** Pages, with the route value their links carry and the query they keep. */
const landings = [
  { path: "/de", routeValue: "de", query: "" },
  { path: "/fr?utm_source=news", routeValue: "fr", query: "?utm_source=news" },
];

const cases = landings.flatMap((landing) => viewports.map((viewport) => [landing.path, viewport.width, landing, viewport] as const));

describe("the landing page", () => {
  it.each(cases)("%s at %i px shows the range with its particulars, fits the screen and is whole", async (_path, _width, landing, viewport) => {
    await session.page.setViewportSize(viewport);
    await openHydrated(session.page, baseUrl + landing.path);
    const page = session.page;
    expect(await page.locator("h1").count()).toBe(1);
    const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
    const cards = page.getByTestId("landing-product");
    expect(await cards.count()).toBeGreaterThan(1);
    // Every image is drawn, the lazy ones once scrolled to, and none shifts the layout.
    await page.getByTestId("landing-notes").scrollIntoViewIfNeeded();
    await expect
      .poll(() => page.locator("main img").evaluateAll((images) => images.filter((image) => !(image as HTMLImageElement).complete || (image as HTMLImageElement).naturalWidth === 0).length))
      .toBe(0);
    const shifted = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!entry.hadRecentInput) total += entry.value;
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(total), 200);
        }),
    );
    expect(shifted).toBeLessThanOrEqual(0.02);
    // The particulars open from the keyboard.
    const details = cards.first().locator("summary");
    await details.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => cards.first().getByTestId("landing-particulars").isVisible()).toBe(true);
    expect(await page.getByTestId("landing-payment-methods").locator("img").count()).toBeGreaterThan(0);
    expect(session.problems).toEqual([]);
  });

  it.each(cases)("%s at %i px leads into the quiz", async (_path, _width, landing, viewport) => {
    await session.page.setViewportSize(viewport);
    await openHydrated(session.page, baseUrl + landing.path);
    const quiz = session.page.getByTestId("landing-quiz");
    await expect.poll(() => quiz.getAttribute("href")).toBe(`/v1/${landing.routeValue}${landing.query}`);
    await quiz.click();
    await session.page.waitForURL(`${baseUrl}/v1/${landing.routeValue}${landing.query}`);
    await expect.poll(() => session.page.locator("html").getAttribute("data-route")).toBe("v1-2");
    expect(await session.page.locator("h1").count()).toBe(1);
    expect(session.problems).toEqual([]);
  });

  it.each(cases)("%s at %i px leads to the current offer", async (_path, _width, landing, viewport) => {
    await session.page.setViewportSize(viewport);
    await openHydrated(session.page, baseUrl + landing.path);
    const offer = session.page.getByTestId("order-now");
    await expect.poll(() => offer.getAttribute("href")).toBe(`/take/${landing.routeValue}${landing.query}`);
    await offer.click();
    await session.page.waitForURL(`${baseUrl}/take/${landing.routeValue}${landing.query}`);
    await expect.poll(() => session.page.locator("html").getAttribute("data-route")).toBe("take-2");
    expect(await session.page.getByTestId("product-card").count()).toBeGreaterThan(0);
    expect(session.problems).toEqual([]);
  });

  it("a product leads to the page that sells it", async () => {
    await openHydrated(session.page, `${baseUrl}/de`);
    await session.page.getByTestId("landing-product").nth(2).getByRole("link").click();
    await session.page.waitForURL(`${baseUrl}/offercoll/de`);
    expect(await session.page.getByTestId("product-card").first().textContent()).toContain("Collagen");
  });

  it("is whole without JavaScript: the range, its particulars and the notes are in the served HTML", async () => {
    const html = await (await fetch(`${baseUrl}/se`)).text();
    for (const testId of ["landing-quiz", "order-now", "landing-range", "landing-particulars", "landing-notes", "landing-payment-methods"]) {
      expect(html, testId).toContain(`data-testid="${testId}"`);
    }
    expect(html).toContain('href="/v1/se"');
    expect(html).toContain("Kosttillskott");
  });

  it("without a locale speaks the visitor's language and leads to the plain quiz", async () => {
    const html = await (await fetch(`${baseUrl}/?utm_source=x`, { headers: { "CF-IPCountry": "IT" } })).text();
    expect(html).toContain('lang="it-IT"');
    expect(html).toMatch(/<a[^>]*href="\/v1\?utm_source=x"[^>]*data-testid="landing-quiz"|<a[^>]*data-testid="landing-quiz"[^>]*href="\/v1\?utm_source=x"/);
  });
});
