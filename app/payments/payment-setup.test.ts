import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import methodsFile from "../../content/commerce/payment-methods.json";
import { paymentMarkText, paymentMarksFor, paymentSetupOf, unknownPaymentSetup } from "./payment-setup";

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

describe("paymentMarkText", () => {
  const translate = (key: string) => `<${key}>`;
  it.each([
    ["card", "<payment.card>"],
    ["bank", "<payment.bank>"],
    ["paypal", "<payment.paypal>"],
    ["klarna", "Klarna"],
    ["eps", "eps-Überweisung"],
  ] as const)("reads %s as %s", (mark, text) => {
    expect(paymentMarkText(mark, translate)).toBe(text);
  });

  it("describes marks only with messages every locale has", () => {
    const keys = Object.values(methodsFile.described);
    expect(keys.length).toBeGreaterThan(0);
    const folder = new URL("../../content/messages/", import.meta.url);
    for (const file of readdirSync(folder)) {
      const messages = JSON.parse(readFileSync(new URL(file, folder), "utf8")) as Record<string, string>;
      for (const key of keys) expect(messages[key], `${key} in ${file}`).toBeTruthy();
    }
  });
});
