import { describe, expect, it } from "vitest";
import { keptValues, validateCheckout, type CheckoutErrorField } from "./checkout-form";

const rules = { country: "DE", methods: ["card", "bank"], digital: false, today: new Date("2026-11-23T12:00:00Z") };

const valid: Readonly<Record<string, string>> = {
  email: "anna.schmidt@example.de",
  givenName: "Anna",
  familyName: "Schmidt",
  addressLine1: "Invalidenstraße 117",
  addressLine2: "",
  postalCode: "10115",
  city: "Berlin",
  country: "DE",
  phone: "+49 30 1234567",
  method: "card",
  digitalConsent: "",
  cardNumber: "4242 4242 4242 4242",
  cardExpiry: "12/30",
  cardCvc: "123",
  token: "token",
  bundle: "shape-3",
};

describe("validateCheckout", () => {
  it("accepts a complete form", () => {
    expect(validateCheckout(valid, rules)).toEqual({});
  });

  it.each<[string, Record<string, string>]>([
    ["no phone number", { phone: "" }],
    ["no second address line", { addressLine2: "" }],
    ["a postal code with spaces", { postalCode: " 10115 " }],
    ["the bank method without any card fields", { method: "bank", cardNumber: "", cardExpiry: "", cardCvc: "" }],
    ["the bank method with nonsense in the card fields", { method: "bank", cardNumber: "1234", cardExpiry: "13/30", cardCvc: "1" }],
  ])("accepts %s", (_name, changes) => {
    expect(validateCheckout({ ...valid, ...changes }, rules)).toEqual({});
  });

  it.each<[string, string, CheckoutErrorField]>([
    ["email", "anna.example.de", "email"],
    ["email", "anna@example", "email"],
    ["email", "", "email"],
    ["givenName", "", "givenName"],
    ["givenName", "   ", "givenName"],
    ["givenName", "A".repeat(101), "givenName"],
    ["familyName", "", "familyName"],
    ["addressLine1", "", "addressLine1"],
    ["addressLine2", "x".repeat(201), "addressLine2"],
    ["city", "", "city"],
    ["country", "FR", "country"],
    ["postalCode", "1234", "postalCode"],
    ["postalCode", "", "postalCode"],
    ["phone", "abc", "phone"],
    ["phone", "12345", "phone"],
    ["method", "paypal", "method"],
    ["method", "", "method"],
    ["cardExpiry", "10/26", "cardExpiry"],
    ["cardExpiry", "13/30", "cardExpiry"],
    ["cardCvc", "12", "cardCvc"],
    ["cardNumber", "1234", "cardNumber"],
  ])("%s %j gives exactly the %s error", (field, value, error) => {
    expect(validateCheckout({ ...valid, [field]: value }, rules)).toEqual({ [error]: true });
  });

  it.each<[string, Partial<Record<CheckoutErrorField, true>>]>([
    ["yes", {}],
    ["", { digitalConsent: true }],
    ["no", { digitalConsent: true }],
  ])("with digital items, consent %j gives %j", (consent, errors) => {
    expect(validateCheckout({ ...valid, digitalConsent: consent }, { ...rules, digital: true })).toEqual(errors);
  });

  it("reports every missing field of an empty form", () => {
    expect(validateCheckout({}, rules)).toEqual({
      email: true,
      givenName: true,
      familyName: true,
      addressLine1: true,
      city: true,
      country: true,
      postalCode: true,
      method: true,
    });
  });
});

describe("keptValues", () => {
  it.each<[string, Record<string, string>, Record<string, string>]>([
    [
      "drops the card fields and keeps the rest",
      valid,
      Object.fromEntries(Object.entries(valid).filter(([field]) => !["cardNumber", "cardExpiry", "cardCvc"].includes(field))),
    ],
    ["keeps a form without card fields as it is", { email: "a@b.de", method: "bank" }, { email: "a@b.de", method: "bank" }],
    ["gives nothing for the card fields alone", { cardNumber: "4242", cardExpiry: "12/30", cardCvc: "123" }, {}],
  ])("%s", (_name, values, kept) => {
    expect(keptValues(values)).toEqual(kept);
  });
});
