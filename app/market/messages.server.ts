import { parse } from "@formatjs/icu-messageformat-parser";
import { defaultLocale, type LocaleCode } from "./markets";
import type { Messages } from "./storefront-context";

type MessageSource = Readonly<Record<string, string>>;

// Bundled into the server build only; the browser receives the active locale's messages through
// the root loader's data, never this module.
const files = import.meta.glob<MessageSource>("../../content/messages/*.json", { eager: true, import: "default" });

/**
 * Messages are parsed here, once, so the browser gets them ready to format and needs no ICU
 * parser of its own (about 8 KB of compressed JavaScript saved on every page).
 */
function parseAll(source: MessageSource): Messages {
  return Object.fromEntries(Object.entries(source).map(([key, message]) => [key, parse(message)]));
}

const messagesByLocale = new Map<string, Messages>(
  Object.entries(files).map(([path, source]) => [path.replace(/^.*\/(\w+)\.json$/, "$1"), parseAll(source)]),
);

function hasTranslation(locale: string): boolean {
  return messagesByLocale.has(locale);
}

/** The locale whose messages are used: the market's own if translated, else the default. */
export function usableLocale(locale: LocaleCode): LocaleCode {
  return hasTranslation(locale) ? locale : defaultLocale;
}

export function messagesFor(locale: LocaleCode): Messages {
  return messagesByLocale.get(usableLocale(locale)) ?? {};
}
