// @vitest-environment jsdom
import { cleanup, render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterContextProvider, RouterProvider } from "react-router";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import HomePage from "../routes/home";
import { offerForRoute } from "../catalog/catalog.server";
import { particularLines } from "../offer/supplement-particulars";
import { funnelTextsFor, productTextFor, quizzes } from "../funnel/content.server";
import { marketFor, type CountryCode } from "../market/markets";
import { storefrontStateContext } from "../market/request-context";
import { storefrontState, WithStorefront } from "../test-support/storefront";
import { catalogProduct, landing, landingTextsFor } from "./landing-content.server";
import { loadLandingPage } from "./landing-loader.server";
import { LandingPage } from "./landing-page";
import { runtimeSettingsPath } from "../platform/runtime-settings";

afterEach(cleanup);

// A store whose Stripe and PayPal take payments, as `/storefront-settings` tells the page.
const realFetch = globalThis.fetch;
beforeAll(() => {
  const settings = { gtmId: null, buildCheckIntervalMs: 3_600_000, paymentProviders: ["stripe", "paypal"] };
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => (String(input).endsWith(runtimeSettingsPath) ? Promise.resolve(Response.json(settings)) : realFetch(input, init)));
});
afterAll(() => vi.unstubAllGlobals());

/** One market per locale: the market whose own language it is. */
const marketsByLocale: [string, CountryCode][] = [
  ["de_DE", "DE"],
  ["ch_CH", "CH"],
  ["ch_FR", "CH-FR"],
  ["fr_FR", "FR"],
  ["en_GB", "GB"],
  ["es_ES", "ES"],
  ["it_IT", "IT"],
  ["sv_SE", "SE"],
  ["da_DK", "DK"],
  ["fi_FI", "FI"],
];

/** The landing route as the app mounts it (`/` is `index`, `/:locale` is `index-2`), with its real loader. */
async function openLanding(country: CountryCode, path: string) {
  const context = new RouterContextProvider();
  context.set(storefrontStateContext, storefrontState(country));
  const router = createMemoryRouter(
    [
      { id: path === "/" ? "index" : "index-2", path: path === "/" ? "/" : "/:locale", loader: () => loadLandingPage({ context }), Component: HomePage },
      { path: "*", element: <p>elsewhere</p> },
    ],
    { initialEntries: [`${path}?utm_source=news`] },
  );
  render(
    <WithStorefront country={country}>
      <RouterProvider router={router} />
    </WithStorefront>,
  );
  // The range is a section that loads after the page (its module is imported on demand): on a busy
  // machine that takes longer than the query's default second.
  await screen.findByTestId("landing-range", {}, { timeout: 15_000 });
}

function headingLevels(): number[] {
  return screen.getAllByRole("heading").map((heading) => Number(heading.tagName.slice(1)));
}

describe.each(marketsByLocale)("the landing page in %s", (locale, country) => {
  const market = marketFor(country);
  const texts = landingTextsFor(locale);
  const sections = funnelTextsFor(locale).offerSections;
  const withQuery = (path: string) => `${path}?utm_source=news`;

  it("has one h1, headings in order and the market's words", async () => {
    await openLanding(country, `/${market.routeValue}`);
    expect(screen.getAllByRole("heading", { level: 1 }).map((h) => h.textContent)).toEqual([texts.heading]);
    const levels = headingLevels();
    levels.forEach((level, index) => expect(level - (levels[index - 1] ?? 0), `heading ${index}`).toBeLessThanOrEqual(1));
    expect(document.querySelector(".page-intro__lead")?.textContent).toBe(texts.intro);
  });

  it("leads into the main quiz and to the current offer in the visitor's market, keeping the query", async () => {
    await openLanding(country, `/${market.routeValue}`);
    const quiz = screen.getByTestId("landing-quiz");
    expect(quiz.textContent).toBe(texts.quiz.cta);
    expect(quiz.getAttribute("href")).toBe(withQuery(`/${landing.quiz}/${market.routeValue}`));
    expect(screen.getByTestId("landing-quiz-end").getAttribute("href")).toBe(withQuery(`/${landing.quiz}/${market.routeValue}`));
    // Decision 41: the order-now button of index and index-2 leads to take-2.
    const offer = screen.getByTestId("order-now");
    expect(offer.textContent).toBe(texts.offer.cta);
    expect(offer.getAttribute("href")).toBe(withQuery(`/take/${market.routeValue}`));
    expect(document.querySelector(".landing-hero__note")?.textContent).toContain(String(quizzes.variants[landing.quiz]?.length));
  });

  it("presents the range with images, one line each, a link to the page that sells it and the supplement particulars", async () => {
    await openLanding(country, `/${market.routeValue}`);
    const cards = screen.getAllByTestId("landing-product");
    expect(cards).toHaveLength(landing.range.length);
    landing.range.forEach(({ product: id, offer }, index) => {
      const card = within(cards[index] as HTMLElement);
      const product = catalogProduct(id);
      const words = productTextFor(locale, id);
      expect(card.getByRole("link", { name: product.name }).getAttribute("href")).toBe(withQuery(`/${offer}/${market.routeValue}`));
      expect(cards[index]?.textContent).toContain(words.tagline);
      const image = cards[index]?.querySelector("img");
      expect(image?.getAttribute("width")).toBe("160");
      expect(image?.getAttribute("height")).toBe("160");
      expect(image?.getAttribute("loading")).toBe("lazy");
      expect(card.getByText(texts.range.supplement)).toBeDefined();
      expect(card.getByText(texts.range.details).tagName).toBe("SUMMARY");
      expect(cards[index]?.textContent).toContain(words.ingredients);
      const particulars = card.getByTestId("landing-particulars");
      expect([...particulars.querySelectorAll("li")].map((li) => li.textContent)).toEqual(particularLines(words.particulars ?? ({} as never)));
    });
  });

  it("states the guarantee, the delivery and the market's payment methods", async () => {
    await openLanding(country, `/${market.routeValue}`);
    const notes = within(screen.getByTestId("landing-notes"));
    expect(notes.getByRole("heading", { name: sections.guaranteeTitle })).toBeDefined();
    expect(screen.getByTestId("landing-notes").textContent).toContain(sections.guaranteeText);
    expect(notes.getByRole("heading", { name: texts.delivery.freeTitle })).toBeDefined();
    expect(screen.getByTestId("landing-notes").textContent).toContain(texts.delivery.text);
    expect(notes.getByRole("heading", { name: texts.payment.title })).toBeDefined();
    // The marks follow the running store's providers, read once the page has loaded.
    expect((await within(notes.getByTestId("landing-payment-methods")).findAllByRole("img", {}, { timeout: 5000 })).length).toBeGreaterThan(0);
  });

  it("shows the product of the offer its button leads to as its largest image, eager and with its size", async () => {
    await openLanding(country, `/${market.routeValue}`);
    const hero = document.querySelector(".landing-hero img") as HTMLImageElement;
    expect(hero.alt).toBe(offerForRoute("take", market.currency, new Date(), market.locale).lines[0]?.productName);
    expect(hero.getAttribute("loading")).toBe("eager");
    expect(hero.getAttribute("fetchpriority")).toBe("high");
    expect([hero.getAttribute("width"), hero.getAttribute("height")]).toEqual(["480", "480"]);
  });
});

describe("the landing page without a locale", () => {
  it("leads into the plain quiz and to the offer of the visitor's resolved market", async () => {
    await openLanding("SE", "/");
    expect(screen.getByTestId("landing-quiz").getAttribute("href")).toBe(`/${landing.quiz}?utm_source=news`);
    expect(screen.getByTestId("order-now").getAttribute("href")).toBe("/take/se?utm_source=news");
    expect(screen.getAllByTestId("landing-product")[0]?.querySelector("a")?.getAttribute("href")).toBe(`/${landing.range[0]?.offer}?utm_source=news`);
  });
});

describe("the rating summary slot", () => {
  const context = new RouterContextProvider();
  context.set(storefrontStateContext, storefrontState("DE"));
  const view = loadLandingPage({ context });

  function renderPage(ratingSummary?: string) {
    const router = createMemoryRouter([{ id: "index-2", path: "/:locale", element: <LandingPage view={view} ratingSummary={ratingSummary ? <p>{ratingSummary}</p> : undefined} /> }], {
      initialEntries: ["/de"],
    });
    render(
      <WithStorefront country="DE">
        <RouterProvider router={router} />
      </WithStorefront>,
    );
  }

  it("is empty until a verified summary is given", () => {
    renderPage();
    expect(document.querySelector(".landing-hero__rating")).toBeNull();
  });

  it("shows the summary it is given under the calls to action", () => {
    renderPage("Verified summary");
    expect(document.querySelector(".landing-hero__rating")?.textContent).toBe("Verified summary");
  });
});
