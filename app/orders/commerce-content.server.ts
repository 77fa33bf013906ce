import { z } from "zod";
import deliveryFile from "../../content/commerce/delivery.json";
import methodsFile from "../../content/commerce/payment-methods.json";
import methodReasonsFile from "../../content/commerce/payment-method-reasons.json";
import providerReturnPagesFile from "../../content/commerce/provider-return-pages.json";
import vatFile from "../../content/commerce/vat.json";
import { vatClasses, type VatClass } from "../catalog/schema";
import { parseContent } from "../platform/content-file";
import { currentPrice } from "../catalog/savings";
import type { DispatchRule } from "../market/dispatch";
import { markets, type CountryCode, type Market } from "../market/markets";
import { checkoutPartOf, offeredCheckoutMethods } from "../payments/checkout-parts";
import { testGatewayId, type PaymentSetup } from "../payments/payment-setup";

/** VAT rates, delivery costs and payment methods: content data, each file under `content/commerce/` naming its sources. */

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

const dispatchRule = z
  .object({
    cutoff: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a local time written HH:MM"),
    workingDays: z.array(z.number().int().min(1).max(7)).min(1, "needs at least one working day"),
    closedDays: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date written YYYY-MM-DD")),
  })
  .strict();

export const deliveryFileSchema = z
  .object({
    source,
    markets: z.object(Object.fromEntries(marketCodes.map((c) => [c, z.object({ standardMinor: z.number().int().min(0), dispatch: dispatchRule }).strict()]))).strict(),
  })
  .strict();

/** The methods the test gateway takes at checkout, in every market. */
export const paymentMethodIds = ["card", "bank"] as const;
export type PaymentMethodId = (typeof paymentMethodIds)[number];
/** The methods each market offers with real providers, and whether they can be charged again: the content's ids, each naming its provider. */
type LiveMethodId = keyof typeof methodsFile.methods;

/** A provider's id: that it names a provider the store has is checked beside the composition's list (`composition/payment-providers.server.test.ts`). */
const providerId = z.string().regex(/^[a-z][a-z0-9-]*$/, "must be a payment provider's id");
const methodsFileSchema = z
  .object({
    testGateway: z.object(Object.fromEntries(paymentMethodIds.map((m) => [m, z.object({ reusable: z.boolean() }).strict()]))).strict(),
    methods: z.record(z.string().regex(/^[a-z][a-z0-9-]*$/, "must be a method's id"), z.object({ provider: providerId, reusable: z.boolean() }).strict()),
    // What each method's mark on the pages reads as: described in the page's language by a
    // `payment.*` message, or by its brand's own name; one of the two.
    described: z.record(z.string(), z.string().regex(/^payment\.[a-z]+$/, "must be a payment.* message's key")),
    brands: z.record(z.string(), z.string().min(1)),
    // A market a method's provider must not be offered in is the provider's to say (`ProviderDescription.notOfferedIn`).
    markets: z.object(Object.fromEntries(marketCodes.map((c) => [c, z.array(z.string()).min(1)]))).strict(),
  })
  .strict()
  .superRefine(({ testGateway, methods, described, brands, markets }, context) => {
    for (const [country, offered] of Object.entries(markets)) {
      for (const [index, id] of offered.entries()) {
        if (!(id in methods)) context.addIssue({ code: "custom", path: ["markets", country, index], message: `"${id}" is not one of the methods above` });
      }
    }
    const marks = new Set([...Object.keys(testGateway), ...Object.keys(methods)]);
    for (const id of marks) {
      if ((id in described) === (id in brands)) context.addIssue({ code: "custom", path: ["described"], message: `"${id}" needs its mark's text either in described or in brands` });
    }
    for (const id of [...Object.keys(described), ...Object.keys(brands)]) {
      if (!marks.has(id)) context.addIssue({ code: "custom", path: ["described"], message: `"${id}" is not a method above` });
    }
  });

/**
 * Why each method can or cannot be charged again, and where the providers say so: kept apart from
 * the methods, which the pages' payment marks load in the browser, so the reasons stay on the server.
 */
const reason = z.string().min(20, "must say why the method can or cannot be charged again");
const methodReasonsFileSchema = z
  .object({
    sources: z.array(z.string().url()).min(1),
    testGateway: z.object(Object.fromEntries(paymentMethodIds.map((m) => [m, reason]))).strict(),
    methods: z.record(z.string(), reason),
  })
  .strict()
  .superRefine(({ methods: reasons }, context) => {
    for (const id of Object.keys(methodsFile.methods)) {
      if (!(id in reasons)) context.addIssue({ code: "custom", path: ["methods", id], message: `"${id}" needs its reason` });
    }
    for (const id of Object.keys(reasons)) {
      if (!(id in methodsFile.methods)) context.addIssue({ code: "custom", path: ["methods", id], message: `"${id}" is not a method of payment-methods.json` });
    }
  });

type RateHistory = z.infer<typeof rateHistory>;
const vat = parseContent("content/commerce/vat.json", vatFileSchema, vatFile) as unknown as {
  countries: Record<string, Record<VatClass, RateHistory>>;
};
const delivery = parseContent("content/commerce/delivery.json", deliveryFileSchema, deliveryFile) as unknown as {
  markets: Record<CountryCode, { standardMinor: number; dispatch: DispatchRule }>;
};
const methods = parseContent("content/commerce/payment-methods.json", methodsFileSchema, methodsFile) as unknown as {
  testGateway: Record<PaymentMethodId, { reusable: boolean }>;
  methods: Record<LiveMethodId, { provider: string; reusable: boolean }>;
  markets: Record<CountryCode, LiveMethodId[]>;
};
parseContent("content/commerce/payment-method-reasons.json", methodReasonsFileSchema, methodReasonsFile);

/**
 * A provider's return page, by provider id: one path segment, the route table's row for it (its
 * twin carries the step the buyer continues to). Kept while orders in flight may come back to it.
 */
const providerReturnPagesSchema = z.record(providerId, z.string().regex(/^\/[a-z][a-z0-9-]*$/, "must be a path of one segment, such as /provider-return"));
parseContent("content/commerce/provider-return-pages.json", providerReturnPagesSchema, providerReturnPagesFile);

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

/** The warehouse's cut-off and working days for a market's orders. */
export function dispatchRuleFor(market: Market): DispatchRule {
  return delivery.markets[market.country].dispatch;
}

export function standardDeliveryMinor(market: Market): number {
  return delivery.markets[market.country].standardMinor;
}

/**
 * A method the checkout's form offers: the test gateway's (`card`, `bank`), a market's method, or
 * one a provider's part of the checkout adds (such as its own element's).
 */
export type CheckoutMethodId = string;

/** The methods the checkout offers in a market, given the providers the store has: each provider's part says which are its own (`payments/checkout-parts.ts`). */
export function paymentMethodsFor(market: Market, setup: PaymentSetup): readonly CheckoutMethodId[] {
  return offeredCheckoutMethods({ methods: methods.markets[market.country], content: methods.methods, running: setup });
}

/**
 * Whether a method can be charged again without the buyer (one-click upsells): the content says,
 * unless the provider's part always saves its own methods.
 */
export function isReusableMethod(method: CheckoutMethodId): boolean {
  const part = checkoutPartOf(method);
  if (part?.provider === testGatewayId) return methods.testGateway[method as PaymentMethodId].reusable;
  if (part?.server?.savesMethods) return true;
  return methods.methods[method as LiveMethodId]?.reusable ?? false;
}

/** The provider that takes a checkout method: the part whose method it is, else the one the content names. */
export function providerOfMethod(method: CheckoutMethodId): string {
  return checkoutPartOf(method)?.provider ?? methods.methods[method as LiveMethodId]?.provider ?? "";
}
