import { describe, expect, it } from "vitest";
import { parseContent } from "../platform/content-file";
import { localeCodes } from "../market/markets";
import { landingFileSchema, landingTextsSchema, type LandingTexts } from "./content-schema";
import { crossCheckLanding, landing, landingTextsFor } from "./landing-content.server";

/** Every text of a nested texts object, by its dotted key. */
function flatTexts(value: unknown, path = ""): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => flatTexts(child, path ? `${path}.${key}` : key));
}

/** The words of a message without its ICU arguments (`{questions, plural, ...}` keeps its branches' words). */
const withoutArguments = (message: string) => message.replace(/\{\w+(, \w+)?(, )?|#|\}/g, " ");

describe("landing content", () => {
  it("has a file for every market's locale, and they agree with the catalog, the quizzes and the route table", () => {
    expect(crossCheckLanding()).toEqual([]);
  });

  it.each(localeCodes)("%s: states no figure of its own (amounts, counts and prices come from the data)", (locale) => {
    const withFigures = flatTexts(landingTextsFor(locale)).filter(([, text]) => /\d/.test(withoutArguments(text)));
    expect(withFigures).toEqual([]);
  });

  it.each(localeCodes.filter((locale) => locale !== "en_GB"))("%s is written in its own language", (locale) => {
    const english = new Map(flatTexts(landingTextsFor("en_GB")));
    const same = flatTexts(landingTextsFor(locale)).filter(([key, text]) => english.get(key) === text);
    expect(same).toEqual([]);
  });

  it("Swiss German never uses ß", () => {
    expect(flatTexts(landingTextsFor("ch_CH")).filter(([, text]) => text.includes("ß"))).toEqual([]);
  });
});

describe("a bad landing file fails naming the file, the field and the rule", () => {
  const good: LandingTexts = landingTextsFor("en_GB");
  const parseTexts = (data: unknown) => () => parseContent("content/landing/en_GB.json", landingTextsSchema, data);

  it.each([
    ["an empty text", { ...good, heading: " " }, "content/landing/en_GB.json: heading: must not be empty"],
    ["a missing text", { ...good, closing: { heading: "Not sure?" } }, "content/landing/en_GB.json: closing.text:"],
    ["an unknown field", { ...good, reviews: "4.9 stars" }, 'content/landing/en_GB.json: (file): Unrecognized key: "reviews"'],
    ["a message without its value", { ...good, quiz: { ...good.quiz, note: "Eight quick questions" } }, "content/landing/en_GB.json: quiz.note: must use {questions}"],
    [
      "a message with a value the page does not give",
      { ...good, delivery: { ...good.delivery, chargedTitle: "Delivery: {price} to {country}" } },
      "content/landing/en_GB.json: delivery.chargedTitle: uses {country}, but the page only gives {price}",
    ],
    ["a broken message", { ...good, quiz: { ...good.quiz, note: "{questions, plural, other {# questions}" } }, "content/landing/en_GB.json: quiz.note: must be an ICU message"],
  ])("%s", (_case, data, expected) => {
    expect(parseTexts(data)).toThrow(expected);
  });

  const parseFile = (data: unknown) => () => parseContent("content/landing/landing.json", landingFileSchema, data);

  it.each([
    ["a quiz that is no quiz page", { ...landing, quiz: "offer" }, 'content/landing/landing.json: quiz: route "offer" shows a offer page, not quiz'],
    ["a route that does not exist", { ...landing, range: [{ product: "shape", offer: "shop" }] }, 'content/landing/landing.json: range.0.offer: no route named "shop"'],
    ["a product listed twice", { ...landing, range: [landing.range[0], landing.range[0]] }, 'content/landing/landing.json: range.1.product: "shape" is listed twice'],
    ["an empty range", { ...landing, range: [] }, "content/landing/landing.json: range: needs at least one product"],
  ])("%s", (_case, data, expected) => {
    expect(parseFile(data)).toThrow(expected);
  });

  it("names a product the catalog lacks, and an offer route that sells another product", () => {
    const file = { ...landing, range: [{ product: "unicorn", offer: "offer" as const }, { product: "lion", offer: "offersalt" as const }] };
    expect(crossCheckLanding(file)).toEqual([
      'content/landing/landing.json: range.0.product: no product "unicorn" in content/catalog/products.json',
      'content/landing/landing.json: range.1.offer: route "offersalt" sells salt, not "lion"',
    ]);
  });

  it("names the market whose file is missing", () => {
    expect(crossCheckLanding(landing, localeCodes.filter((locale) => locale !== "fi_FI"))).toEqual([
      "content/landing/fi_FI.json: missing (every market needs its landing page)",
    ]);
  });
});
