import { describe, expect, it } from "vitest";
import methodsFile from "../../content/commerce/payment-methods.json";
import providerReturnPages from "../../content/commerce/provider-return-pages.json";
import { markets } from "../market/markets";
import { paymentMethodsFor, providerOfMethod } from "../orders/commerce-content.server";
import { checkoutParts } from "../payments/checkout-parts";
import { paymentSetupOf, testGatewayId } from "../payments/payment-setup";
import { methodsByMarketOf } from "../payments/provider-description";
import { paymentProviders } from "./payment-providers.server";

const providerIds = new Set([testGatewayId, ...paymentProviders.map((provider) => provider.id)]);

describe("the payment providers the store is composed of", () => {
  it("take every method the content names a provider for", () => {
    for (const [method, { provider }] of Object.entries(methodsFile.methods)) expect(providerIds, `${method}'s provider`).toContain(provider);
  });

  it("are each provider that has a return page of its own", () => {
    for (const provider of Object.keys(providerReturnPages)) expect(providerIds, `${provider}'s return page`).toContain(provider);
  });

  it("each have at most one part of the checkout, and every part is a provider's", () => {
    const owners = checkoutParts.map((part) => part.provider);
    expect(new Set(owners).size).toBe(owners.length);
    for (const owner of owners) expect(providerIds).toContain(owner);
  });

  it("are offered in no market they say they must not be", () => {
    for (const { id, notOfferedIn } of paymentProviders) {
      const offered = methodsByMarketOf(id);
      for (const market of notOfferedIn?.markets ?? []) expect(offered[market] ?? [], notOfferedIn?.why).toEqual([]);
    }
    expect(paymentProviders.some((provider) => provider.notOfferedIn?.markets.includes("CH")), "PayPal's rule for Switzerland").toBe(true);
  });

  it("take each method the checkout offers through the provider the method names", () => {
    const everyProvider = paymentSetupOf(providerIds);
    for (const market of markets) {
      for (const method of paymentMethodsFor(market, everyProvider)) expect(everyProvider).toContain(providerOfMethod(method));
    }
  });
});
