import { IntlMessageFormat } from "intl-messageformat";
import reference from "../../content/mail/en_GB.json";
import { loadLocaleFiles } from "../market/locale-files";
import { defaultLocale } from "../market/markets";

/** E-mail texts per locale: ICU messages, formatted on the server where the parser lives. */
export type MailTexts = typeof reference;

const files = import.meta.glob<unknown>("../../content/mail/*.json", { eager: true, import: "default" });
const texts = loadLocaleFiles("content/mail", files, reference);

export function mailTextsFor(lang: string): MailTexts {
  return texts.get(lang) ?? (texts.get(defaultLocale) as MailTexts);
}

export function formatMessage(message: string, languageTag: string, values: Record<string, string | number> = {}): string {
  return String(new IntlMessageFormat(message, languageTag).format(values));
}
