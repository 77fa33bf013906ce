import { describe, expect, inject, it } from "vitest";
import { openHydrated, openPageSession } from "./support/chromium";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 390, height: 844 });

// Long words (Finnish, German) and side-by-side fields are what push a page wider than a phone.
describe("on a 390-pixel phone", () => {
  it.each([
    "/fr",
    "/v1/de",
    "/summary/fi",
    "/offer/de",
    "/upsell/it",
    "/thankyou/es",
    "/checkout/fr?bundle=shape-3",
    "/checkout/fi?bundle=shape-3",
    "/checkout/de?bundle=shape-1",
    "/withdraw/de",
    "/refund/fi",
    "/feedback/dk",
  ])("%s fits the screen without sideways scrolling", async (path) => {
    await openHydrated(session.page, baseUrl + path);
    const widths = await session.page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
    expect(widths.page).toBeLessThanOrEqual(widths.screen);
  });
});

/** Every page type, in the languages with the longest words (German, Finnish) and French. */
const pageTypes = [
  "/offer",
  "/offer2",
  "/take2",
  "/lionoffer",
  "/v1",
  "/summary",
  "/upsell",
  "/collagen-upsell",
  "/upsellfat",
  "/fibergum",
  "/v8",
  "/thankyou",
  "/checkout",
  "/withdraw",
  "/refund",
  "/feedback",
  "/terms",
  "/addapp",
];
const longWordMarkets = ["de", "fr", "fi"];

/** What a phone shows wrongly: a page wider than the screen, an element beside it, a stretched image. */
function layoutProblems(): string[] {
  const screen = window.innerWidth;
  const problems: string[] = [];
  const page = document.scrollingElement?.scrollWidth ?? 0;
  if (page > screen) problems.push(`the page is ${page}px wide`);
  for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
    if (element.closest(".visually-hidden, dialog:not([open])")) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.left < -0.5 || box.right > screen + 0.5) problems.push(`${element.tagName.toLowerCase()}.${element.getAttribute("class") ?? ""} reaches ${Math.round(box.left)}..${Math.round(box.right)}`);
  }
  for (const image of document.images) {
    const width = Number(image.getAttribute("width"));
    const height = Number(image.getAttribute("height"));
    if (!width || !height || image.clientHeight === 0) continue;
    // Within a pixel of rounding of the shape its width and height promise.
    if (Math.abs(image.clientHeight - (image.clientWidth * height) / width) > 1) problems.push(`${image.alt || image.src} is drawn ${image.clientWidth}x${image.clientHeight}`);
  }
  return problems;
}

describe("every page type on a 390-pixel phone in German, French and Finnish", () => {
  const cases = longWordMarkets.flatMap((market) => [...pageTypes.map((path) => [`${path}/${market}`, market]), ["/no-such-page", market]]);
  it.each(cases)("%s (%s) fits the screen and draws its images undistorted", async (path, market) => {
    // The 404 page speaks the language of the visitor's country.
    await session.page.setExtraHTTPHeaders({ "CF-IPCountry": market.toUpperCase() });
    await openHydrated(session.page, baseUrl + path + (path.startsWith("/checkout/") ? "?bundle=shape-3" : ""));
    expect(await session.page.evaluate(layoutProblems)).toEqual([]);
  });
});

describe("bundle cards side by side on a wide screen", () => {
  it.each(["/offer/de", "/offer/fi", "/fibergum/fr"])("%s keep their pictures and titles level", async (path) => {
    await session.page.setViewportSize({ width: 1280, height: 800 });
    await openHydrated(session.page, baseUrl + path);
    const tops = await session.page.evaluate(() =>
      [".bundle-card__image", ".bundle-card__title"].map((selector) => [...document.querySelectorAll(selector)].map((element) => Math.round(element.getBoundingClientRect().top))),
    );
    for (const row of tops) {
      expect(row.length).toBeGreaterThan(1);
      expect(new Set(row).size, `${row.join(", ")}`).toBe(1);
    }
  });
});

describe("the footer's payment logos", () => {
  // This store runs in test mode with the test gateway alone: cards and bank payments, as its
  // checkout offers, and no brand it cannot take.
  it.each(["/offer/se", "/offer/be", "/offer/ch-fr", "/de"])("on %s show only what the test gateway takes", async (path) => {
    await openHydrated(session.page, baseUrl + path);
    const marks = session.page.getByTestId(path === "/de" ? "landing-payment-methods" : "payment-methods").locator("img");
    await expect.poll(() => marks.count()).toBe(2);
    const sources = await marks.evaluateAll((images) => images.map((image) => image.getAttribute("src") ?? ""));
    expect(sources[0]).toContain("card");
    expect(sources[1]).toContain("bank");
  });
});
