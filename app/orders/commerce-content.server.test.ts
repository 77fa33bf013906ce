import { describe, expect, it } from "vitest";
import { marketFor, type CountryCode } from "../market/markets";
import { paymentSetupOf } from "../payments/payment-setup";
import { isReusableMethod, paymentMethodsFor, providerOfMethod } from "./commerce-content.server";

describe("paymentMethodsFor", () => {
  it.each<[CountryCode, string[], string[]]>([
    ["DE", ["test"], ["card", "bank"]],
    ["DE", ["test", "paypal"], ["card", "bank", "paypal"]],
    ["DE", ["stripe", "paypal"], ["stripe", "klarna", "paypal"]],
    ["DE", ["test", "stripe", "paypal"], ["stripe", "klarna", "paypal"]],
    ["SE", ["stripe", "paypal"], ["stripe", "swish", "klarna", "paypal"]],
    ["AT", ["stripe"], ["stripe", "eps", "klarna"]],
    ["BE", ["stripe", "paypal"], ["stripe", "paypal"]],
    ["CH", ["stripe", "paypal"], ["stripe", "twint"]],
    ["FR", ["paypal"], ["paypal"]],
    ["FR", [], []],
  ])("offers in %s with %j: %j", (country, providers, offered) => {
    expect(paymentMethodsFor(marketFor(country), paymentSetupOf(providers))).toEqual(offered);
  });
});

describe("the checkout's methods", () => {
  it.each([
    ["card", "test", true],
    ["bank", "test", false],
    ["stripe", "stripe", true],
    ["bancontact", "stripe", true],
    ["klarna", "stripe", false],
    ["twint", "stripe", false],
    ["paypal", "paypal", true],
  ])("%s is taken by %s, reusable: %s", (method, provider, reusable) => {
    expect(providerOfMethod(method)).toBe(provider);
    expect(isReusableMethod(method)).toBe(reusable);
  });
});
