import reference from "../../content/checkout/en_GB.json";
import { loadLocaleFiles } from "../market/locale-files";
import { defaultLocale } from "../market/markets";

/** The texts of the checkout, the test gateway's pages, the order view, the upsell answers and the withdrawal page. */
export type CommerceTexts = typeof reference;

const files = import.meta.glob<unknown>("../../content/checkout/*.json", { eager: true, import: "default" });
const texts = loadLocaleFiles("content/checkout", files, reference);

export function commerceTextsFor(lang: string): CommerceTexts {
  return texts.get(lang) ?? (texts.get(defaultLocale) as CommerceTexts);
}
