import { describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 1280, height: 800 });

const modal = () => session.page.getByTestId("info-modal");
const focusedTestId = () => session.page.evaluate(() => document.activeElement?.getAttribute("data-testid"));

describe("information modal", () => {
  it("opens from the footer, switches sections back to the top, and closes three ways", async () => {
    await openHydrated(session.page, `${baseUrl}/offer/gb`);
    const opener = session.page.getByTestId("footer-privacy");
    await opener.focus();
    await session.page.keyboard.press("Enter");
    await expect.poll(() => modal().getAttribute("data-section")).toBe("privacy");
    await expect.poll(() => modal().getByRole("heading", { level: 2 }).textContent()).toMatch(/^Privacy/);
    expect(await focusedTestId()).toBe("modal-close");
    expect(await session.page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
    const panelHeight = await modal().evaluate((element) => element.getBoundingClientRect().height);
    expect(panelHeight).toBeCloseTo(800 * 0.7, 0);

    // Switching scrolls the new section back to the top.
    await session.page.locator(".info-modal__body").evaluate((element) => element.scrollTo({ top: 400 }));
    await modal().getByRole("button", { name: /Delivery/ }).click();
    await expect.poll(() => modal().getAttribute("data-section")).toBe("delivery");
    expect(await session.page.locator(".info-modal__body").evaluate((element) => element.scrollTop)).toBe(0);

    // Focus stays inside: tabbing many times never reaches the page behind.
    for (let i = 0; i < 15; i += 1) await session.page.keyboard.press("Tab");
    expect(await session.page.evaluate(() => Boolean(document.activeElement?.closest("dialog")))).toBe(true);

    await session.page.keyboard.press("Escape");
    await expect.poll(() => modal().count()).toBe(0);
    expect(await focusedTestId()).toBe("footer-privacy");

    await session.page.getByTestId("footer-delivery").click();
    await session.page.getByTestId("modal-close").click();
    await expect.poll(() => modal().count()).toBe(0);

    await session.page.getByTestId("footer-ingredients").click();
    await expect.poll(() => modal().locator("img").count()).toBe(1);
    await session.page.getByTestId("modal-backdrop").click({ position: { x: 10, y: 10 } });
    await expect.poll(() => modal().count()).toBe(0);
    expect(await session.page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe("hidden");
  });

  it("shows the contact section with address, phone and e-mail", async () => {
    await openHydrated(session.page, `${baseUrl}/summary/fr`);
    await session.page.getByTestId("footer-contact").click();
    await expect.poll(() => modal().getAttribute("data-section")).toBe("contact");
    await expect.poll(() => modal().textContent()).toContain("Keizersgracht 241");
    const text = await modal().textContent();
    expect(text).toContain("+31 20 808 4120");
    expect(text).toContain("service@vitanor.eu");
  });

  it("shows the compliant UK address on a GB landing route", async () => {
    await openHydrated(session.page, `${baseUrl}/take/gb`);
    await session.page.getByTestId("footer-privacy").click();
    await modal().getByRole("button", { name: "Customer service" }).click();
    await expect.poll(() => modal().getAttribute("data-section")).toBe("contact");
    await expect.poll(() => modal().textContent()).toContain("71–75 Shelton Street");
    expect(await modal().textContent()).not.toContain("Keizersgracht");
  });
});

describe("footer", () => {
  it.each([
    ["/", "help-centre", "_self", false],
    ["/take/gb", "help-centre", "_blank", false],
    ["/offer/fr", "modal", "_blank", true],
    ["/buy", "modal", "_blank", true],
    ["/get/de", "modal", "_self", true],
    ["/thankyou/se", "modal", "_self", true],
  ])("on %s contact is %s, terms open in %s, contact details %s", async (path, contact, termsTarget, details) => {
    await openHydrated(session.page, baseUrl + path);
    const contactLink = session.page.getByTestId("footer-contact");
    expect(await contactLink.evaluate((element) => element.tagName)).toBe(contact === "modal" ? "BUTTON" : "A");
    if (contact === "help-centre") expect(await contactLink.getAttribute("target")).toBe("_blank");
    expect((await session.page.getByTestId("footer-terms").getAttribute("target")) ?? "_self").toBe(termsTarget);
    expect(await session.page.getByTestId("footer-terms").getAttribute("href")).toMatch(/^\/terms\/[a-z-]+/);
    expect(await session.page.getByTestId("footer-phone").count()).toBe(details ? 1 : 0);
    expect(await session.page.getByTestId("footer-address").count()).toBe(details ? 1 : 0);
    const year = String(new Date().getFullYear());
    expect(await session.page.getByTestId("site-footer").textContent()).toContain(`© ${year}`);
  });
});

describe("top banner and order-now button", () => {
  it("shows the second bundle's savings percent and a ticking timer", async () => {
    // A working day before the dispatch cut-off in London, so that a timer runs.
    await session.page.clock.install({ time: new Date("2026-11-27T10:00:00Z") });
    await openHydrated(session.page, `${baseUrl}/offer/gb`);
    const percent = await session.page.getByTestId("top-banner").getByTestId("savings-percent").textContent();
    const secondCardBadge = await session.page.getByTestId("product-card").nth(1).locator(".bundle-card__badge").textContent();
    expect(secondCardBadge).toContain(percent);
    const before = await session.page.getByTestId("countdown").first().locator("time").textContent();
    await session.page.clock.runFor(2_000);
    await expect.poll(() => session.page.getByTestId("countdown").first().locator("time").textContent(), { timeout: 3000 }).not.toBe(before);
  });

  it("counts to the same deadline whatever the visitor's storage holds", async () => {
    await session.page.clock.install({ time: new Date("2026-11-27T12:58:30Z") });
    await openHydrated(session.page, `${baseUrl}/offer/fr`);
    // A deadline stored by an earlier version of the page (a per-visitor window) changes nothing.
    await session.page.evaluate((key) => localStorage.setItem(key, String(Date.now() + 90 * 60_000)), "vitanor:offer-deadline:shape");
    await openHydrated(session.page, `${baseUrl}/offer/fr`);
    // 14:00 in Paris is 13:00 UTC: about 01:30 left.
    await expect.poll(() => session.page.getByTestId("countdown").first().locator("time").textContent()).toMatch(/^01:(2\d|30)$/);
  });

  it("scrolls to the products on an offer page", async () => {
    await session.page.setViewportSize({ width: 390, height: 600 });
    await openHydrated(session.page, `${baseUrl}/offer/de`);
    await session.page.getByTestId("order-now").click();
    await expect.poll(() => session.page.getByTestId("products").evaluate((element) => Math.round(element.getBoundingClientRect().top))).toBeLessThan(40);
  });

  it.each([
    ["/summary/fr?src=v3&utm_source=fb", "/get/fr?src=v3&utm_source=fb"],
    ["/v1ip-summary/ch?src=v1ip", "/offerip/ch-fr?src=v1ip"],
    ["/summarypop/fr?src=v1", "/summarypop/fr?src=v1&step=bundle"],
  ])("on the prerendered %s links to %s once hydrated", async (path, target) => {
    await openHydrated(session.page, baseUrl + path);
    await expect.poll(() => session.page.getByTestId("order-now").getAttribute("href")).toBe(target);
    await session.page.getByTestId("order-now").click();
    await session.page.waitForURL(baseUrl + target);
  });

  it("leads from the landing page to take-2 with the query string", async () => {
    await openHydrated(session.page, `${baseUrl}/?utm_source=newsletter`);
    await session.page.getByTestId("order-now").click();
    await session.page.waitForURL(`${baseUrl}/take/de?utm_source=newsletter`);
  });
});
