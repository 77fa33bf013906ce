import { z } from "zod";
import { parseContent } from "../platform/content-file";
import { defaultLocale, isLocaleCode } from "../market/markets";
import { modalSections, type LegalTexts } from "./legal-texts";

const section = z.object({ title: z.string().min(1), paragraphs: z.array(z.string().min(1)).min(1) }).strict();
const legalFileSchema = z.object(Object.fromEntries(modalSections.map((name) => [name, section]))).strict();

const files = import.meta.glob<unknown>("../../content/legal/*.json", { eager: true, import: "default" });

// Checked when the server build is imported (the build's prerendering does): a bad file fails the build.
const textsByLocale = new Map<string, LegalTexts>(
  Object.entries(files).map(([path, data]) => {
    const locale = path.replace(/^.*\/(\w+)\.json$/, "$1");
    return [locale, parseContent(`content/legal/${locale}.json`, legalFileSchema, data) as LegalTexts];
  }),
);

/** The legal texts in a locale, or in the default locale where that one has none. */
export function legalTextsFor(lang: string): LegalTexts | undefined {
  if (!isLocaleCode(lang)) return undefined;
  return textsByLocale.get(lang) ?? textsByLocale.get(defaultLocale);
}
