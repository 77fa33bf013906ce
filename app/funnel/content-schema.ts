import { z } from "zod";
import { keepNumbersWithUnits } from "./number-spacing";

/** Schemas of the funnel's content files (`content/funnel/`, `content/products/`). */

// Names (question, option, bundle and route ids) are kept as written; texts are shown to visitors.
const name = z.string().min(1, "must not be empty");
const names = (min: number) => z.array(name).min(min, `needs at least ${min}`);
const optionalText = z.string().transform(keepNumbersWithUnits);
const text = name.transform(keepNumbersWithUnits);
const texts = (min: number) => z.array(text).min(min, `needs at least ${min}`);

export const quizzesFileSchema = z
  .object({
    questions: z.record(
      z.string(),
      z.discriminatedUnion("type", [
        z.object({ type: z.enum(["single", "multiple"]), options: names(2) }).strict(),
        z.object({ type: z.literal("number"), measure: z.enum(["age", "height", "weight"]) }).strict(),
      ]),
    ),
    variants: z.record(z.string(), names(1)),
    /** The product each goal's result text names: shown only when the quiz's offer sells it. */
    goalProducts: z.record(z.string(), name),
  })
  .strict()
  .superRefine((file, context) => {
    const goal = file.questions.goal;
    for (const option of goal && "options" in goal ? goal.options : []) {
      if (!(option in file.goalProducts)) context.addIssue({ code: "custom", path: ["goalProducts", option], message: "every goal names the product its result recommends" });
    }
    for (const [variant, questions] of Object.entries(file.variants)) {
      questions.forEach((question, index) => {
        if (!(question in file.questions)) {
          context.addIssue({ code: "custom", path: ["variants", variant, index], message: `no question "${question}"` });
        }
      });
    }
  });

export const upsellsFileSchema = z
  .object({
    upsells: z.record(z.string(), z.object({ bundle: name, next: name }).strict()),
    productPages: z.record(z.string(), name),
  })
  .strict();

const form = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

export const funnelTextsSchema = z
  .object({
    questions: z.record(z.string(), z.object({ title: text, hint: optionalText, options: z.record(z.string(), text) }).strict()),
    variants: z.record(z.string(), z.object({ title: text, intro: text }).strict()),
    results: z.record(z.string(), z.object({ heading: text, text }).strict()),
    tips: z.record(z.string(), text),
    advertorial: z.object({ kicker: text, title: text, standfirst: text, paragraphs: texts(3), cta: text }).strict(),
    offerSections: z
      .object({
        benefitsTitle: text,
        howToUseTitle: text,
        ingredientsTitle: text,
        particularsTitle: text,
        faqTitle: text,
        guaranteeTitle: text,
        guaranteeText: text,
      })
      .strict(),
    exitIntent: z.object({ title: text, text, accept: text, decline: text }).strict(),
    upsell: z.object({ kicker: text, kickerLast: text, decline: text, sameParcel: text, digitalDelivery: text }).strict(),
    thankYou: z
      .object({ nextStepsTitle: text, nextSteps: texts(2), guaranteeTitle: text, guaranteeText: text })
      .strict(),
    refundForm: form({
      title: text,
      intro: text,
      orderNumber: text,
      email: text,
      reason: text,
      reasonOptions: z.object({ withdrawal: text, guarantee: text, damaged: text, other: text }).strict(),
      message: text,
      submit: text,
      success: text,
      errors: z.object({ orderNumber: text, email: text, reason: text }).strict(),
    }),
    feedbackForm: form({
      title: text,
      rating: text,
      ratingOptions: z.object({ 1: text, 2: text, 3: text, 4: text, 5: text }).strict(),
      comment: text,
      email: text,
      submit: text,
      success: text,
      errors: z.object({ rating: text, comment: text, email: text }).strict(),
    }),
    addApp: z.object({ steps: texts(2) }).strict(),
    paymentReturn: z.object({ continue: text }).strict(),
  })
  .strict();

const particulars = z
  .object({ dailyDose: text, doNotExceed: text, notASubstitute: text, keepAway: text, storage: text, warnings: optionalText })
  .strict();

const productTextSchema = z
  .object({
    /** The product's name as buyers of this locale read it, on pages and in e-mails. */
    name: text,
    tagline: text,
    description: texts(1),
    benefits: texts(2),
    howToUse: text,
    ingredients: text,
    particulars: particulars.nullable(),
    faq: z.array(z.object({ question: text, answer: text }).strict()).min(1),
  })
  .strict();

export const productTextsSchema = z.record(z.string(), productTextSchema);

export type FunnelTexts = z.infer<typeof funnelTextsSchema>;
export type ProductText = z.infer<typeof productTextSchema>;
