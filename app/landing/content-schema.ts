import { isArgumentElement, isNumberElement, isPluralElement, isSelectElement, isTagElement, parse, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { z } from "zod";
import { findRouteEntry, type PlainRouteName } from "../funnel/route-table";

/** Schemas of the landing page's content: `content/landing/landing.json` and `content/landing/{locale}.json`. */

const text = z.string().trim().min(1, "must not be empty");

/** The names of the values an ICU message asks for (`{price}`, `{questions, plural, ...}`). */
function argumentNames(elements: readonly MessageFormatElement[], names = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (isArgumentElement(element) || isNumberElement(element)) names.add(element.value);
    if (isPluralElement(element) || isSelectElement(element)) {
      names.add(element.value);
      for (const option of Object.values(element.options)) argumentNames(option.value, names);
    }
    if (isTagElement(element)) argumentNames(element.children, names);
  }
  return names;
}

/** An ICU message that the page fills with exactly these values. */
function message(values: readonly string[]) {
  return text.superRefine((value, context) => {
    let used: Set<string>;
    try {
      used = argumentNames(parse(value));
    } catch (error) {
      context.addIssue({ code: "custom", message: `must be an ICU message (${error instanceof Error ? error.message : String(error)})` });
      return;
    }
    for (const name of values) {
      if (!used.has(name)) context.addIssue({ code: "custom", message: `must use {${name}}` });
    }
    for (const name of used) {
      if (!values.includes(name)) context.addIssue({ code: "custom", message: `uses {${name}}, but the page only gives ${values.map((v) => `{${v}}`).join(", ")}` });
    }
  });
}

/** The name of a plain route that has a locale twin and renders one of the given page kinds. */
function routeName(pages: readonly string[]) {
  return z.string().superRefine((value, context) => {
    const entry = findRouteEntry(value);
    if (!entry || entry.param !== null) context.addIssue({ code: "custom", message: `no route named "${value}" (a plain route such as "offer")` });
    else if (!entry.hasLocaleTwin) context.addIssue({ code: "custom", message: `route "${value}" has no locale twin` });
    else if (!pages.includes(entry.page)) context.addIssue({ code: "custom", message: `route "${value}" shows a ${entry.page} page, not ${pages.join(" or ")}` });
  }) as unknown as z.ZodType<PlainRouteName>;
}

/** Which quiz the page leads to and which products it presents, each with the route that sells it. */
export const landingFileSchema = z
  .object({
    quiz: routeName(["quiz"]),
    range: z
      .array(z.object({ product: text, offer: routeName(["offer", "product"]) }).strict())
      .min(1, "needs at least one product")
      .superRefine((range, context) => {
        range.forEach((item, index) => {
          if (range.findIndex((other) => other.product === item.product) !== index) {
            context.addIssue({ code: "custom", path: [index, "product"], message: `"${item.product}" is listed twice` });
          }
        });
      }),
  })
  .strict();

/** The landing page's words in one locale. */
export const landingTextsSchema = z
  .object({
    /** The document title. */
    title: text,
    heading: text,
    intro: text,
    quiz: z.object({ cta: text, note: message(["questions"]) }).strict(),
    offer: z.object({ cta: text }).strict(),
    range: z.object({ heading: text, intro: text, supplement: text, details: text }).strict(),
    delivery: z.object({ freeTitle: text, chargedTitle: message(["price"]), text }).strict(),
    payment: z.object({ title: text, text }).strict(),
    closing: z.object({ heading: text, text }).strict(),
  })
  .strict();

export type LandingFile = z.infer<typeof landingFileSchema>;
export type LandingTexts = z.infer<typeof landingTextsSchema>;
