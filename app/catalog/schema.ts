import { z } from "zod";

/** Content files are checked against these schemas when the site is built (and in the tests). */

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD");
const instant = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$/, "must be an instant with its offset, like 2027-01-01T00:00:00+01:00");
const minorAmount = z.number().int("must be a whole number of minor units (cents)").positive("must be above zero");

export const vatClasses = ["food-supplement", "ebook", "electronic-service"] as const;
export type VatClass = (typeof vatClasses)[number];

export const currencies = ["EUR", "GBP", "CHF", "SEK", "DKK"] as const;

const priceHistory = z
  .array(
    z
      .object({ from: isoDate, until: instant.optional(), grossMinor: minorAmount })
      .strict()
      .refine((entry) => entry.until === undefined || Date.parse(entry.until) > Date.parse(entry.from), { message: "until must come after from", path: ["until"] }),
  )
  .min(1, "needs at least one price")
  .refine((entries) => entries.every((entry, i) => i === 0 || entry.from > (entries[i - 1]?.from ?? "")), {
    message: "prices must be listed from oldest to newest, one per date",
  });

const bundle = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/, "must be lower-case letters, digits and dashes"),
    units: z.number().int().min(1, "must be at least 1"),
    prices: z.object(Object.fromEntries(currencies.map((currency) => [currency, priceHistory]))).strict(),
  })
  .strict();

export const productsFileSchema = z
  .object({
    products: z
      .array(
        z
          .object({
            id: z.string().regex(/^[a-z0-9-]+$/, "must be lower-case letters, digits and dashes"),
            name: z.string().min(1),
            kind: z.enum(["supplement", "digital"]),
            /** Which VAT rate applies (`content/commerce/vat.json`). */
            vatClass: z.enum(vatClasses),
            image: z.string().min(1),
            bundles: z.array(bundle).min(1, "needs at least one bundle"),
          })
          .strict(),
      )
      .min(1),
  })
  .strict()
  .superRefine((file, context) => {
    const ids = file.products.flatMap((product) => [product.id, ...product.bundles.map((b) => b.id)]);
    ids.forEach((id, index) => {
      if (ids.indexOf(id) !== index) context.addIssue({ code: "custom", message: `id "${id}" is used twice`, path: ["products"] });
    });
  });

export const offersFileSchema = z
  .object({
    offers: z.record(
      z.string(),
      z
        .object({
          lines: z.array(z.string()).min(2, "an offer shows at least two bundles (the banner reads the second)"),
          mostPopular: z.string(),
          /** The one add-on the checkout offers with this offer's bundles, unticked: a bundle id. */
          bump: z.string().optional(),
        })
        .strict()
        .refine((offer) => offer.lines.includes(offer.mostPopular), {
          message: "mostPopular must be one of the offer's lines",
          path: ["mostPopular"],
        }),
    ),
    defaultOffer: z.string(),
    offerByRoute: z.record(z.string(), z.string()),
  })
  .strict();

export type ProductsFile = z.infer<typeof productsFileSchema>;
export type OffersFile = z.infer<typeof offersFileSchema>;

