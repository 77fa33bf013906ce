import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, inject, it } from "vitest";
import { launchChromium, openHydrated } from "./support/chromium";

const baseUrl = inject("baseUrl");
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});
beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 390, height: 500 } });
  problems = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
});
afterEach(async () => {
  await page.close();
});

describe("client-side navigation", () => {
  it.each([
    ["/offer/fr?utm_source=fb&src=v2", "/upsell/fr?utm_source=fb&src=v2", "/upsell/fr.data"],
    ["/offer?utm_campaign=spring", "/upsell?utm_campaign=spring", "/upsell.data"],
  ])("from %s keeps the query string on the way to %s, fetching %s", async (start, target, dataPath) => {
    await openHydrated(page, baseUrl + start);
    const requests: { url: string; type: string }[] = [];
    page.on("request", (request) => requests.push({ url: request.url(), type: request.resourceType() }));
    await page.getByTestId("next-step").click();
    await page.waitForURL(baseUrl + target);
    expect(requests.some((request) => new URL(request.url).pathname === dataPath)).toBe(true);
    expect(requests.filter((request) => request.type === "document")).toEqual([]);
    await expect.poll(() => page.locator("html").getAttribute("data-route")).toMatch(/^upsell/);
    expect(problems).toEqual([]);
  });

  it("scrolls to the top after a change of path", async () => {
    await page.setViewportSize({ width: 390, height: 300 });
    await openHydrated(page, `${baseUrl}/v1/fr`);
    await page.getByTestId("next-step").scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.getByTestId("next-step").click();
    await page.waitForURL(`${baseUrl}/summary/fr`);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});

describe("not-found page", () => {
  it.each(["/offer/xx?utm_source=mail", "/no/such/page?utm_source=mail"])(
    "%s leads to the offer with the query string",
    async (path) => {
      await openHydrated(page, baseUrl + path);
      await expect.poll(() => page.getByTestId("not-found").isVisible()).toBe(true);
      await page.getByTestId("try-today").click();
      await page.waitForURL(`${baseUrl}/offer?utm_source=mail`);
      await expect.poll(() => page.locator("html").getAttribute("data-route")).toBe("offer");
      expect(await page.getByTestId("not-found").count()).toBe(0);
    },
  );
});

describe("pages load cleanly", () => {
  it.each(["/offer/fr", "/offer", "/", "/thankyou/ch-fr", "/addapp/gb", "/paypal-confirm/upsell"])(
    "%s hydrates with no console error or CSP violation",
    async (path) => {
      await openHydrated(page, baseUrl + path);
      expect(problems).toEqual([]);
    },
  );
});
