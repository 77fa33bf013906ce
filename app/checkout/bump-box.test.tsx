// @vitest-environment jsdom
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { bumpBundles } from "../catalog/catalog.server";
import { commerceTextsFor } from "../orders/commerce-texts.server";
import { BumpBox, type BumpOffer } from "./checkout-form-view";

const offer = (ticked: boolean): BumpOffer => ({ bundleId: "ebook-1", productName: "Vitanor Alltagsrezepte", kind: "digital", priceMinor: 990, pitch: "", ticked, onToggle: () => undefined });

function rendered(ticked: boolean, locale = "de_DE") {
  const texts = commerceTextsFor(locale).checkout.bump;
  const html = renderToString(<BumpBox bump={{ ...offer(ticked), pitch: texts.pitch["ebook-1"] }} price="9,90 €" texts={texts} />);
  return new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, "text/html");
}

describe("the checkout's add-on box", () => {
  it("is a checkbox named bump inside the order bump, unticked unless the buyer ticked it, with the price in its label", () => {
    const box = rendered(false).querySelector<HTMLInputElement>('[data-testid="order-bump"] input[type="checkbox"][name="bump"]');
    expect(box?.checked).toBe(false);
    expect(box?.closest("label")?.textContent).toContain("Ja, Vitanor Alltagsrezepte für 9,90 € dazubestellen");
    expect(rendered(true).querySelector<HTMLInputElement>('input[name="bump"]')?.checked).toBe(true);
  });

  it.each(["fr_FR", "de_DE", "en_GB", "sv_SE", "da_DK", "fi_FI", "ch_CH", "ch_FR", "es_ES", "it_IT"])("has its copy in %s, with the product and the price filled in", (locale) => {
    const label = rendered(false, locale).querySelector("label")?.textContent ?? "";
    expect(label).toContain("Vitanor Alltagsrezepte");
    expect(label).toContain("9,90 €");
    expect(label).not.toMatch(/[{}]/);
  });

  it("has a line of copy for every offer's add-on, and Swiss German writes ss", () => {
    const pitches: Record<string, string> = commerceTextsFor("en_GB").checkout.bump.pitch;
    for (const bundle of bumpBundles()) expect(pitches[bundle], bundle).toBeTruthy();
    expect(JSON.stringify(commerceTextsFor("ch_CH").checkout.bump)).not.toContain("ß");
  });
});
