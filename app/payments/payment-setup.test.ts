import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import methodsFile from "../../content/commerce/payment-methods.json";
import { paymentMarkLabel, paymentMarksFor, paymentSetupOf, unknownPaymentSetup, type PaymentMarkId } from "./payment-setup";

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

describe("paymentMarkLabel", () => {
  it.each([
    ["card", { described: "payment.card" }],
    ["bank", { described: "payment.bank" }],
    ["paypal", { described: "payment.paypal" }],
    ["klarna", { brand: "Klarna" }],
    ["eps", { brand: "eps-Überweisung" }],
  ] as const)("reads %s as %j", (mark, label) => {
    expect(paymentMarkLabel(mark as PaymentMarkId)).toEqual(label);
  });

  it("describes marks only with messages every locale has", () => {
    const marks = [...Object.keys(methodsFile.methods), ...Object.keys(methodsFile.testGateway)] as PaymentMarkId[];
    const keys = marks.flatMap((mark) => {
      const label = paymentMarkLabel(mark);
      return "described" in label ? [label.described] : [];
    });
    expect(keys.length).toBeGreaterThan(0);
    const folder = new URL("../../content/messages/", import.meta.url);
    for (const file of readdirSync(folder)) {
      const messages = JSON.parse(readFileSync(new URL(file, folder), "utf8")) as Record<string, string>;
      for (const key of keys) expect(messages[key], `${key} in ${file}`).toBeTruthy();
    }
  });
});
