import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { fillContact as fillContactOf, openCheckout, payByCard } from "./support/buyer";
import { openHydrated, openPageSession } from "./support/chromium";

const baseUrl = inject("baseUrl");
const session = openPageSession({ width: 390, height: 844 });
const page = () => session.page;
/** Phone-size pictures for the people reviewing the pages; outside the repository. */
const shotsDir = process.env.E2E_SHOTS_DIR;
const shoot = async (name: string) => {
  if (shotsDir) await page().screenshot({ path: `${shotsDir}/${name}.png`, fullPage: false });
};

const countdown = () => page().getByTestId("countdown");
const timer = () => countdown().locator("time");

/** Sets the browser's clock (the server keeps its own): the store's deadlines are absolute instants. */
async function openAt(path: string, isoTime: string) {
  await page().clock.install({ time: new Date(isoTime) });
  await openHydrated(page(), `${baseUrl}${path}`);
}

const buyers: Record<string, Record<string, string>> = {
  de: { email: "jonas.beispiel@example.com", givenName: "Jonas", familyName: "Beispiel", addressLine1: "Hauptstraße 5", postalCode: "10115", city: "Berlin" },
  se: { email: "astrid.exempel@example.com", givenName: "Astrid", familyName: "Exempel", addressLine1: "Drottninggatan 12", postalCode: "11151", city: "Stockholm" },
};

async function buyShapeAndOpenFirstUpsell(market: "de" | "se", card = "4242 4242 4242 4242") {
  await openCheckout(page(), market, "bundle=shape-3&src=v2");
  await fillContactOf(page(), buyers[market]);
  await payByCard(page(), card);
}

describe("the countdown counts to the store's own deadlines", () => {
  it.each([
    ["/offer/de", "2026-11-27T10:00:00Z", "dann verschicken wir Ihre Bestellung heute", "Bestellungen ab jetzt verschicken wir am nächsten Werktag", "de"],
    ["/offer/se", "2026-11-27T10:00:00Z", "så skickas din order i dag", "Beställningar som görs nu skickas nästa arbetsdag", "sv"],
  ])("on %s: today's dispatch cut-off, minutes past 59, then the next working day at zero", async (path, time, running, ended, shot) => {
    // 11:00 in Berlin and Stockholm on a Friday; the cut-off is 14:00 there.
    await openAt(path, time);
    await expect.poll(() => timer().textContent()).toMatch(/^1[78]\d:\d\d$/);
    expect(await countdown().getAttribute("data-kind")).toBe("ships-today");
    expect(await countdown().textContent()).toContain(running);
    const before = await timer().textContent();
    await page().clock.runFor(2_000);
    expect(await timer().textContent()).not.toBe(before);
    if (shot === "de") await shoot("offer-de-dispatch-countdown-before");

    // Cleared storage and a reload do not restart it: it still counts to 14:00.
    await page().evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
    await page().reload();
    await page().waitForSelector("html[data-hydrated]");
    await expect.poll(() => timer().textContent()).toMatch(/^1[78]\d:\d\d$/);
    const minutesLeft = Number((await timer().textContent())?.split(":")[0]);
    expect(minutesLeft).toBeLessThanOrEqual(Number(before?.split(":")[0]));

    await page().clock.fastForward("03:00:00");
    await expect.poll(() => timer().textContent()).toBe("00:00");
    expect(await countdown().getAttribute("data-expired")).toBe("");
    expect(await countdown().textContent()).toContain(ended);
    if (shot === "de") await shoot("offer-de-dispatch-countdown-at-zero");
  });

  it("shows no timer after the cut-off, only when orders now ship", async () => {
    await openAt("/offer/dk", "2026-11-27T15:30:00Z");
    await expect.poll(() => countdown().getAttribute("data-kind")).toBe("none");
    expect(await countdown().textContent()).toBe("Ordrer afgivet nu sendes næste hverdag");
  });

  it.each([
    ["/offer/de", "Der Angebotspreis endet in", "Das Angebot ist beendet – es gelten die regulären Preise", "49,90", "de"],
    ["/offer/fi", "Tarjoushinta päättyy", "Tarjous on päättynyt – normaalihinnat ovat voimassa", "49,90", "fi"],
  ])("on %s: the reduction's last minutes, then the regular price with no saving and no reference price", async (path, running, ended, regular, shot) => {
    // Two minutes before the reduction's end (midnight on 31 December, Central European Time).
    await openAt(path, "2026-12-31T22:58:00Z");
    await expect.poll(() => countdown().getAttribute("data-kind")).toBe("offer-ends");
    expect(await timer().textContent()).toMatch(/^0[12]:\d\d$/);
    expect(await countdown().textContent()).toContain(running);
    const first = page().getByTestId("product-card").first();
    expect(await first.locator(".bundle-card__price").textContent()).toMatch(/39,90/);
    expect(await page().getByTestId("reference-price").count()).toBe(3);
    expect(await page().getByTestId("savings-percent").count()).toBe(1);
    await shoot(`offer-${shot}-offer-countdown-before`);
    await page().getByTestId("products").scrollIntoViewIfNeeded();
    await shoot(`offer-${shot}-reference-price`);

    await page().clock.fastForward("02:30");
    await expect.poll(() => timer().textContent()).toBe("00:00");
    expect(await countdown().textContent()).toContain(ended);
    expect(await first.locator(".bundle-card__price").textContent()).toMatch(new RegExp(regular));
    expect(await page().getByTestId("reference-price").count()).toBe(0);
    expect(await page().locator(".bundle-card__badge").count()).toBe(0);
    expect(await page().getByTestId("offer-ends").count()).toBe(0);
    expect(await page().getByTestId("savings-percent").count()).toBe(0);
    await page().evaluate(() => window.scrollTo(0, 0));
    await shoot(`offer-${shot}-offer-countdown-at-zero`);
  });

  it("never charges a total the pay button did not show: a reduction that ended while the form was open asks again", async () => {
    await openCheckout(page(), "de", "bundle=shape-3&src=v2");
    await fillContactOf(page(), buyers.de);
    await page().locator('input[name="method"][value="card"]').check();
    await page().locator('[autocomplete="cc-number"]').fill("4242 4242 4242 4242");
    await page().locator('[autocomplete="cc-exp"]').fill("12/30");
    await page().locator('[autocomplete="cc-csc"]').fill("123");
    // The form as a page opened before the reduction ended carries it: another total than today's.
    await page().locator('input[name="quotedTotal"]').evaluate((input: HTMLInputElement) => (input.value = "1"));
    await page().getByTestId("place-order").click();
    await expect.poll(() => page().getByTestId("checkout-error").textContent()).toContain("Das Angebot ist inzwischen beendet");
    // Nothing was charged: the buyer is still at the checkout, which shows the total that applies now.
    expect(page().url()).toContain("/checkout/de");
    expect(await page().getByTestId("place-order").textContent()).toContain(((await page().getByTestId("order-total").textContent()) ?? "").trim());
  });
});

describe("the reference price says which period it shows", () => {
  it.each([
    ["/offer/de", "Niedrigster Preis der 30 Tage vor der Preissenkung: 49,90", "Angebotspreis gültig bis einschließlich 31. Dezember 2026"],
    ["/offer/dk", "Laveste pris i de 30 dage før prisnedsættelsen: 369,00", "Tilbudsprisen gælder til og med 31. december 2026"],
  ])("on %s", async (path, reference, ends) => {
    await openAt(path, "2026-11-27T10:00:00Z");
    const card = page().getByTestId("product-card").first();
    expect((await card.getByTestId("reference-price").textContent())?.replace(/\s/g, " ")).toContain(reference);
    expect(await card.getByTestId("offer-ends").textContent()).toBe(ends);
  });
});

/** Walks a quiz, choosing the goal by its position and the first option or the lowest number elsewhere. */
async function walkQuiz(goalIndex: number) {
  let first = true;
  for (let answered = 0; (await page().getByTestId("quiz-next").count()) > 0 && answered < 12; answered += 1) {
    const inputs = page().getByTestId("quiz-input");
    if ((await inputs.count()) > 0) {
      for (let index = 0; index < (await inputs.count()); index += 1) {
        await inputs.nth(index).fill(String(Number(await inputs.nth(index).getAttribute("min")) + 1));
      }
    } else {
      await page().getByTestId("quiz-option").nth(first ? goalIndex : 0).click();
    }
    first = false;
    const step = await page().evaluate(() => document.querySelector("progress")?.getAttribute("value") ?? null);
    await page().getByTestId("quiz-next").click();
    await expect.poll(() => page().evaluate(() => document.querySelector("progress")?.getAttribute("value") ?? null)).not.toBe(step);
  }
}

describe("the quiz recommends what its order button sells", () => {
  it.each([
    // /v2: the goal "skin" once recommended Collagen; its offer sells Shape.
    ["/v2/de", 3, "Das Angebot zu diesem Fragebogen: Vitanor Shape", "Collagen", /\/offer2\/de/, "Vitanor Shape", "de"],
    // /v10: the goal "focus" recommends Lion's Mane, which its offer sells.
    ["/v10/se", 5, "Erbjudandet som hör till det här frågeformuläret: Vitanor Lion’s Mane Focus", "Collagen", /\/lionoffer\/se/, "Vitanor Lion’s Mane Focus", "sv"],
  ])("%s", async (quiz, goalIndex, recommendation, absent, offerPath, sold, shot) => {
    await openHydrated(page(), `${baseUrl}${quiz}`);
    await walkQuiz(goalIndex);
    await page().waitForURL(/\/summary\//);
    const result = page().getByTestId("summary-result");
    await expect.poll(() => result.getByTestId("summary-offer").textContent()).toContain(recommendation);
    expect(await result.textContent()).not.toContain(absent);
    await shoot(`quiz-${shot}-result`);
    await page().getByTestId("order-now").click();
    await page().waitForURL(offerPath);
    await page().waitForSelector("html[data-hydrated]");
    const titles = await page().locator(".bundle-card__title").allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) expect(title).toContain(sold);
    await shoot(`quiz-${shot}-its-offer`);
  });
});

async function declineAndReachThankYou(target: Page, market: string) {
  await target.getByTestId("upsell-decline").click();
  await target.waitForURL(new RegExp(`/upsellMind/${market}`));
  await target.waitForSelector("html[data-hydrated]");
}

describe("a buyer's path in German and Swedish: names, upsells, thank-you", () => {
  it.each([
    ["de", "Nur noch eine Sache, bevor Sie gehen", "Ein letzter Vorschlag zu Ihrer Bestellung", "Vitanor Calm Mind (Audioprogramm)", "Vielen Dank – Ihre Bestellung ist bei uns eingegangen", "„Ihre Downloads“ auf dieser Seite", "herunterladen"],
    ["se", "En sak till innan du går vidare", "Ett sista förslag till din beställning", "Vitanor Calm Mind (ljudprogram)", "Tack – vi har tagit emot din beställning", "”Dina nedladdningar” på den här sidan", "Ladda ner"],
  ])("in %s", { timeout: 60_000 }, async (market, firstKicker, secondKicker, mindName, heading, downloadsPlace, download) => {
    await buyShapeAndOpenFirstUpsell(market as "de" | "se");
    await page().waitForURL(new RegExp(`/upsell/${market}`));
    await page().waitForSelector("html[data-hydrated]");
    expect(await page().locator(".advertorial__kicker").textContent()).toBe(firstKicker);
    await declineAndReachThankYou(page(), market);
    expect(await page().locator(".advertorial__kicker").textContent()).toBe(secondKicker);
    expect(await page().locator("h1").textContent()).toBe(mindName);
    await page().getByTestId("digital-consent").check();
    await page().getByTestId("upsell-accept").click();
    await page().waitForURL(new RegExp(`/thankyou/${market}`));

    await expect.poll(() => page().locator("h1").textContent()).toBe(heading);
    const link = page().getByTestId("download-link");
    await expect.poll(() => link.count()).toBe(1);
    expect(await link.textContent()).toContain(mindName);
    expect(await link.textContent()).toContain(download);
    const steps = page().locator('[aria-labelledby="next-steps-title"] li');
    expect((await steps.allTextContents()).join(" ")).toContain(downloadsPlace);
    // The downloads are where the step says: on this page, in the section it names.
    expect(await page().locator("#downloads-title").isVisible()).toBe(true);
  });
});

describe("smaller things a buyer sees", () => {
  it("keeps the German security-code label's words whole at 390 px", async () => {
    await openCheckout(page(), "de", "bundle=shape-3&src=v2");
    await page().locator('input[name="method"][value="card"]').check();
    const label = page().locator('label[for="field-cardCvc"]').first();
    await label.scrollIntoViewIfNeeded();
    const lines = await label.evaluate((element) => {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const node = walker.nextNode();
      const text = node?.textContent ?? "";
      const start = text.indexOf("Sicherheitscode");
      const range = document.createRange();
      if (!node || start < 0) return -1;
      range.setStart(node, start);
      range.setEnd(node, start + "Sicherheitscode".length);
      return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
    });
    expect(lines).toBe(1);
    await shoot("checkout-de-card-fields");
  });

  it.each([
    ["de", "abgelehnt"],
    ["se", "nekades"],
  ])("in %s, a declined card's message goes once a new card is typed into the emptied fields", async (market, declined) => {
    await buyShapeAndOpenFirstUpsell(market as "de" | "se", "4000 0000 0000 0002");
    await expect.poll(() => page().getByTestId("checkout-error").textContent()).toContain(declined);
    expect(await page().locator('[autocomplete="cc-number"]').inputValue()).toBe("");
    await page().locator('[autocomplete="cc-number"]').pressSequentially("4242");
    await expect.poll(() => page().getByTestId("checkout-error").count()).toBe(0);
  });

  it.each([
    ["/", "de", ["Kredit- und Debitkarten", "Online-Überweisung"]],
    ["/se", "se", null],
  ])("the landing page %s shows a mark for each method the market's checkout offers", async (path, market, names) => {
    await openCheckout(page(), market, "bundle=shape-3&src=v2");
    const offered = await page().locator('input[name="method"]').count();
    await openHydrated(page(), `${baseUrl}${path}`);
    const marks = page().getByTestId("landing-payment-methods").getByRole("img");
    await expect.poll(() => marks.count(), { timeout: 8000 }).toBe(offered);
    if (names) expect(await marks.evaluateAll((images) => images.map((image) => image.getAttribute("alt")))).toEqual(names);
  });
});
