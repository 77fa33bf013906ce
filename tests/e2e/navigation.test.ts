import { describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 390, height: 500 });

describe("client-side navigation", () => {
  it.each([
    ["/offer/fr?utm_source=fb&src=v2", /\/checkout\/fr\?bundle=[a-z0-9-]+&utm_source=fb&src=v2$/, "/checkout/fr.data"],
    ["/offer?utm_campaign=spring", /\/checkout\?bundle=[a-z0-9-]+&utm_campaign=spring$/, "/checkout.data"],
  ])("from %s keeps the query string on the way to %s, fetching %s", async (start, target, dataPath) => {
    await openHydrated(session.page, baseUrl + start);
    const requests: { url: string; type: string }[] = [];
    session.page.on("request", (request) => requests.push({ url: request.url(), type: request.resourceType() }));
    await session.page.getByTestId("product-card").first().getByRole("link").click();
    await session.page.waitForURL(target);
    expect(requests.some((request) => new URL(request.url).pathname === dataPath)).toBe(true);
    expect(requests.filter((request) => request.type === "document")).toEqual([]);
    await expect.poll(() => session.page.locator("html").getAttribute("data-route")).toMatch(/^checkout/);
    expect(session.problems).toEqual([]);
  });

  it("scrolls to the top after a change of path", async () => {
    await session.page.setViewportSize({ width: 390, height: 300 });
    await openHydrated(session.page, `${baseUrl}/thankyou/fr`);
    await session.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await session.page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await session.page.getByTestId("footer-terms").click();
    await session.page.waitForURL(`${baseUrl}/terms/fr`);
    await expect.poll(() => session.page.evaluate(() => window.scrollY)).toBe(0);
  });
});

describe("not-found page", () => {
  it.each(["/offer/xx?utm_source=mail", "/no/such/page?utm_source=mail"])(
    "%s leads to the offer with the query string",
    async (path) => {
      await openHydrated(session.page, baseUrl + path);
      await expect.poll(() => session.page.getByTestId("not-found").isVisible()).toBe(true);
      await session.page.getByTestId("try-today").click();
      await session.page.waitForURL(`${baseUrl}/offer?utm_source=mail`);
      await expect.poll(() => session.page.locator("html").getAttribute("data-route")).toBe("offer");
      expect(await session.page.getByTestId("not-found").count()).toBe(0);
    },
  );
});

describe("pages load cleanly", () => {
  it.each(["/offer/fr", "/offer", "/", "/thankyou/ch-fr", "/addapp/gb", "/paypal-confirm/upsell"])(
    "%s hydrates with no console error or CSP violation",
    async (path) => {
      await openHydrated(session.page, baseUrl + path);
      expect(session.problems).toEqual([]);
    },
  );
});
