import { describe, expect, it } from "vitest";
import { paymentMarksFor, paymentSetupOf, unknownPaymentSetup } from "./payment-setup";

describe("paymentMarksFor", () => {
  const testMode = paymentSetupOf(["test"]);
  it.each([
    ["DE", testMode, ["card", "bank"]],
    ["SE", testMode, ["card", "bank"]],
    ["DE", paymentSetupOf(["test", "paypal"]), ["card", "bank", "paypal"]],
    ["DE", paymentSetupOf(["stripe"]), ["card", "klarna"]],
    ["DE", paymentSetupOf(["stripe", "paypal"]), ["card", "paypal", "klarna"]],
    ["SE", paymentSetupOf(["stripe", "paypal"]), ["card", "swish", "klarna", "paypal"]],
    ["CH", paymentSetupOf(["stripe", "paypal"]), ["card", "twint"]],
    ["CH-FR", paymentSetupOf(["paypal"]), []],
    ["BE", paymentSetupOf(["paypal"]), ["paypal"]],
    ["FR", unknownPaymentSetup, []],
    ["XX", paymentSetupOf(["stripe"]), []],
  ])("%s with %j shows %j", (country, setup, marks) => {
    expect(paymentMarksFor(country, setup)).toEqual(marks);
  });
});
