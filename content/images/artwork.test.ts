import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("./", import.meta.url);
const artwork = readdirSync(root, { recursive: true, encoding: "utf8" })
  .filter((name) => name.endsWith(".svg"))
  .map((name) => name.split("\\").join("/"))
  .sort();
const source = (name: string) => readFileSync(new URL(name, root), "utf8");
const words = (svg: string) => [...svg.matchAll(/<(?:text|tspan|textPath)\b[^>]*>([^<]*)</g)].map((match) => match[1]?.trim() ?? "");

/** Brand names stay as they are in every language; every other word belongs in the page's HTML. */
const brandNames = ["Bancontact", "eps", "Klarna", "MobilePay", "PayPal", "Swish", "TWINT"];

// A word drawn into an image is in one language on every market's page, and it is rasterised
// with whatever fonts the build machine has, so a wider fallback font can cut it.
describe("image artwork", () => {
  it("finds the sources", () => {
    expect(artwork.filter((name) => name.startsWith("products/")).length).toBeGreaterThan(0);
  });

  it.each(artwork.filter((name) => name.startsWith("products/")))("%s carries no words: the product name is in the page", (name) => {
    expect(source(name)).not.toMatch(/<(?:text|tspan|textPath|foreignObject)\b/);
  });

  it.each(artwork.filter((name) => !name.startsWith("products/")))("%s carries at most a brand name", (name) => {
    for (const word of words(source(name))) expect(brandNames, `${name}: "${word}"`).toContain(word);
  });
});
