import { readFileSync } from "node:fs";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { localeCodes } from "./markets";

const sourceLocale = "en_GB";

function readMessages(locale: string): Record<string, string> {
  return JSON.parse(readFileSync(new URL(`../../content/messages/${locale}.json`, import.meta.url), "utf8"));
}

/** Names of the ICU arguments a message uses, e.g. `{brand}` and `{count, plural, ...}`. */
function argumentNames(message: string, locale: string): string[] {
  const names = new Set<string>();
  const visit = (elements: unknown[]) => {
    for (const element of elements as { type: number; value?: unknown; options?: Record<string, { value: unknown[] }> }[]) {
      if (element.type !== 0 && typeof element.value === "string") names.add(element.value);
      for (const option of Object.values(element.options ?? {})) visit(option.value);
    }
  };
  visit(new IntlMessageFormat(message, locale.replace("_", "-")).getAst());
  return [...names].sort();
}

const source = readMessages(sourceLocale);
/** SI unit symbols are written the same in every language. */
const unitSymbols = new Set(["quiz.unit.cm", "quiz.unit.kg"]);

describe.each(localeCodes)("messages of %s", (locale) => {
  const messages = readMessages(locale);

  it("has exactly the keys of the source locale", () => {
    expect(Object.keys(messages).sort()).toEqual(Object.keys(source).sort());
  });

  it.each(Object.keys(source))("%s parses and uses the same arguments", (key) => {
    const message = messages[key];
    expect(message, `missing ${key}`).toBeTypeOf("string");
    expect(argumentNames(message as string, locale)).toEqual(argumentNames(source[key] as string, sourceLocale));
  });

  it.skipIf(locale === sourceLocale)("translates every message", () => {
    const untranslated = Object.keys(source).filter((key) => messages[key] === source[key] && !unitSymbols.has(key));
    expect(untranslated).toEqual([]);
  });
});

describe("Swiss German", () => {
  it("never uses ß", () => {
    const withEszett = Object.entries(readMessages("ch_CH")).filter(([, value]) => value.includes("ß"));
    expect(withEszett).toEqual([]);
  });
});
