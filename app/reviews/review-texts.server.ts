import { IntlMessageFormat } from "intl-messageformat";
import reference from "../../content/reviews/en_GB.json";
import { loadLocaleFiles } from "../market/locale-files";
import { defaultLocale } from "../market/markets";

/** The review page, the offer pages' review section and the review policy, per locale (ICU messages). */
export type ReviewTexts = typeof reference;

const files = import.meta.glob<unknown>("../../content/reviews/*.json", { eager: true, import: "default" });
const texts = loadLocaleFiles("content/reviews", files, reference);

export function reviewTextsFor(locale: string): ReviewTexts {
  return texts.get(locale) ?? (texts.get(defaultLocale) as ReviewTexts);
}

export function formatReviewText(message: string, languageTag: string, values: Record<string, string | number>): string {
  return String(new IntlMessageFormat(message, languageTag).format(values));
}
