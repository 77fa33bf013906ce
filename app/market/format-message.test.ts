import { readFileSync } from "node:fs";
import { parse, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { formatMessageParts, formattedElementTypes, type MessageIntl } from "./format-message";
import { markets } from "./markets";

const intlFor = (languageTag: string): MessageIntl => ({
  number: () => new Intl.NumberFormat(languageTag),
  pluralRules: (type) => new Intl.PluralRules(languageTag, { type }),
});

const format = (message: string, languageTag: string, values: Record<string, string | number> = {}) =>
  formatMessageParts(parse(message), intlFor(languageTag), values).join("");

/** Every element of a message, those inside plural and select cases too. */
function elementsOf(elements: readonly MessageFormatElement[]): MessageFormatElement[] {
  return elements.flatMap((element) => [
    element,
    ...("options" in element ? Object.values(element.options).flatMap((option) => elementsOf(option.value)) : []),
    ...("children" in element ? elementsOf(element.children) : []),
  ]);
}

describe("formatting a parsed message", () => {
  it("joins text and values", () => {
    expect(format("Hello {name}, welcome to {brand}", "en-GB", { name: "Ada", brand: "Vitanor" })).toBe("Hello Ada, welcome to Vitanor");
  });

  it("takes an exact case first, then the locale's plural rule, with offset and #", () => {
    const message = "{count, plural, =0 {no box} one {# box} other {# boxes}}";
    expect(format(message, "en-GB", { count: 0 })).toBe("no box");
    expect(format(message, "en-GB", { count: 1 })).toBe("1 box");
    expect(format(message, "en-GB", { count: 1200 })).toBe("1,200 boxes");
    expect(format("{count, plural, offset:1 one {you and # other} other {you and # others}}", "en-GB", { count: 3 })).toBe("you and 2 others");
    expect(format("{count, plural, one {# jour} other {# jours}}", "fr-FR", { count: 0 })).toBe("0 jour");
  });

  it("chooses a select case or its other case", () => {
    const message = "{kind, select, box {a box} other {a bag}}";
    expect(format(message, "en-GB", { kind: "box" })).toBe("a box");
    expect(format(message, "en-GB", { kind: "tin" })).toBe("a bag");
  });

  it("keeps a rich value as a part of its own", () => {
    const bold = { rich: true };
    expect(formatMessageParts(parse("Save {percent} today"), intlFor("en-GB"), { percent: bold })).toEqual(["Save ", bold, " today"]);
  });

  it("refuses a value that is missing and a format it does not know", () => {
    expect(() => format("Hello {name}", "en-GB")).toThrow(/name/);
    expect(() => format("{price, number, ::currency/EUR}", "en-GB", { price: 3 })).toThrow(/number/);
  });
});

describe.each(markets.map((market) => [market.locale, market.languageTag] as const))("every message of %s (%s)", (locale, languageTag) => {
  const messages = JSON.parse(readFileSync(new URL(`../../content/messages/${locale}.json`, import.meta.url), "utf8")) as Record<string, string>;

  it("uses only the element kinds the storefront formats", () => {
    const unknown = Object.entries(messages).filter(([, message]) => elementsOf(parse(message)).some((element) => !formattedElementTypes.has(element.type)));
    expect(unknown.map(([key]) => key)).toEqual([]);
  });

  it("comes out as intl-messageformat formats it, for several counts", () => {
    for (const [key, message] of Object.entries(messages)) {
      const names = elementsOf(parse(message)).flatMap((element) => ("value" in element && element.type !== 0 ? [element.value] : []));
      for (const count of [0, 1, 2, 3, 5, 11, 21, 1500]) {
        const values = Object.fromEntries(names.map((name) => [name, count]));
        expect(format(message, languageTag, values), `${key} with ${count}`).toBe(String(new IntlMessageFormat(message, languageTag).format(values)));
      }
    }
  });
});
