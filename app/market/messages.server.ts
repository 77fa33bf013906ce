import { defaultLocale, type LocaleCode } from "./markets";
import type { Messages } from "./storefront-context";

// Eagerly bundled into the server build only; the browser receives the active locale's messages
// through the root loader's data, never this module.
const files = import.meta.glob<Messages>("../../content/messages/*.json", { eager: true, import: "default" });

const messagesByLocale = new Map<string, Messages>(
  Object.entries(files).map(([path, messages]) => [path.replace(/^.*\/(\w+)\.json$/, "$1"), messages]),
);

export function hasTranslation(locale: string): boolean {
  return messagesByLocale.has(locale);
}

/** The locale whose messages are used: the market's own if translated, else the default (§5). */
export function usableLocale(locale: LocaleCode): LocaleCode {
  return hasTranslation(locale) ? locale : defaultLocale;
}

export function messagesFor(locale: LocaleCode): Messages {
  return messagesByLocale.get(usableLocale(locale)) ?? {};
}

export function translatedLocales(): string[] {
  return [...messagesByLocale.keys()];
}
