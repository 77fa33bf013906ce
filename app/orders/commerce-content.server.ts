import { z } from "zod";
import deliveryFile from "../../content/commerce/delivery.json";
import methodsFile from "../../content/commerce/payment-methods.json";
import vatFile from "../../content/commerce/vat.json";
import { parseContent, vatClasses, type VatClass } from "../catalog/schema";
import { currentPrice } from "../catalog/savings";
import { markets, type CountryCode, type Market } from "../market/markets";

/** VAT rates, delivery costs and payment methods: content data with their sources (DESIGN §10). */

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD");
const rateHistory = z
  .array(z.object({ from: isoDate, rateBp: z.number().int().min(0).max(10_000) }).strict())
  .min(1)
  .refine((entries) => entries.every((entry, i) => i === 0 || entry.from > (entries[i - 1]?.from ?? "")), {
    message: "rates must be listed from oldest to newest, one per date",
  });
const source = z.string().min(10, "must name the law or notice the figures come from");
const marketCodes = markets.map((market) => market.country) as [CountryCode, ...CountryCode[]];
/** The country a market delivers to: both Swiss markets are CH. */
const taxCountries = [...new Set(markets.map((market) => market.country.slice(0, 2)))];

export const vatFileSchema = z
  .object({
    classes: z.object(Object.fromEntries(vatClasses.map((c) => [c, z.string().min(1)]))).strict(),
    countries: z
      .object(Object.fromEntries(taxCountries.map((c) => [c, z.object({ ...Object.fromEntries(vatClasses.map((v) => [v, rateHistory])), source }).strict()])))
      .strict(),
  })
  .strict();

export const deliveryFileSchema = z
  .object({
    source,
    markets: z.object(Object.fromEntries(marketCodes.map((c) => [c, z.object({ standardMinor: z.number().int().min(0) }).strict()]))).strict(),
  })
  .strict();

export const paymentMethodIds = ["card", "bank"] as const;
export type PaymentMethodId = (typeof paymentMethodIds)[number];

export const methodsFileSchema = z
  .object({
    methods: z.object(Object.fromEntries(paymentMethodIds.map((m) => [m, z.object({ provider: z.literal("test"), reusable: z.boolean() }).strict()]))).strict(),
    markets: z.object(Object.fromEntries(marketCodes.map((c) => [c, z.array(z.enum(paymentMethodIds)).min(1)]))).strict(),
  })
  .strict();

type RateHistory = z.infer<typeof rateHistory>;
const vat = parseContent("content/commerce/vat.json", vatFileSchema, vatFile) as unknown as {
  countries: Record<string, Record<VatClass, RateHistory>>;
};
const delivery = parseContent("content/commerce/delivery.json", deliveryFileSchema, deliveryFile) as unknown as {
  markets: Record<CountryCode, { standardMinor: number }>;
};
const methods = parseContent("content/commerce/payment-methods.json", methodsFileSchema, methodsFile) as unknown as {
  methods: Record<PaymentMethodId, { provider: "test"; reusable: boolean }>;
  markets: Record<CountryCode, PaymentMethodId[]>;
};

/** The delivery country of a market, ISO 3166-1 alpha-2 (CH-FR delivers to CH). */
export function deliveryCountry(market: Market): string {
  return market.country.slice(0, 2);
}

/** The VAT rate in basis points for goods of a class delivered to a market's country on a day. */
export function vatRateBp(market: Market, vatClass: VatClass, day: Date): number {
  const history = vat.countries[deliveryCountry(market)]?.[vatClass] ?? [];
  const rate = currentPrice(history, day);
  if (!rate) throw new Error(`No VAT rate for ${vatClass} in ${deliveryCountry(market)} on ${day.toISOString().slice(0, 10)}`);
  return rate.rateBp;
}

export function standardDeliveryMinor(market: Market): number {
  return delivery.markets[market.country].standardMinor;
}

export function paymentMethodsFor(market: Market): readonly PaymentMethodId[] {
  return methods.markets[market.country];
}

export function isReusableMethod(method: PaymentMethodId): boolean {
  return methods.methods[method].reusable;
}
