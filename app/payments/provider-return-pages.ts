import providerReturnPages from "../../content/commerce/provider-return-pages.json";

/**
 * The page of its own a provider's pages send the buyer back to (`/paypal-confirm`), if it has one:
 * `content/commerce/provider-return-pages.json`, which the route table reads too, since the funnel's
 * routes sit below the providers (docs/decisions/0037-providers-describe-themselves.md). A provider
 * without one sends the buyer back to `/checkout-return`.
 */
export function providerReturnPage(providerId: string): string | undefined {
  return (providerReturnPages as Readonly<Record<string, string>>)[providerId];
}
