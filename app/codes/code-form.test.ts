import { describe, expect, it } from "vitest";
import { minorUnitsOf, readCodeForm } from "./code-form";

const form = (fields: Record<string, string | string[]>) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) params.append(name, one);
  return params;
};

const percentForm = { code: "spring-20", kind: "percent", percent: "20", oncePerCustomer: "yes" };

describe("the code form", () => {
  it.each<[string, Record<string, string | string[]>, Record<string, unknown>]>([
    ["a percent code, normalised, once per customer", percentForm, { code: "SPRING20", reduction: { kind: "percent", percent: 20 }, oncePerCustomer: true, firstOrderOnly: false, maxRedemptions: null, countries: [] }],
    [
      "an amount per currency in major units, an empty currency left out",
      { code: "Five Off", kind: "amount", amount_EUR: "5", amount_GBP: "4,50", amount_CHF: "5.5", amount_SEK: "" },
      { code: "FIVEOFF", reduction: { kind: "amount", amountMinor: { EUR: 500, GBP: 450, CHF: 550 } }, oncePerCustomer: false },
    ],
    ["a minimum order per currency", { ...percentForm, minimum_EUR: "30", minimum_DKK: "199,95" }, { minimumMinor: { EUR: 3000, DKK: 19995 } }],
    ["markets in the table's order", { ...percentForm, country: ["SE", "DE"] }, { countries: ["DE", "SE"] }],
    [
      "days as UTC days, the last one included",
      { ...percentForm, validFrom: "2026-12-01", validUntil: "2026-12-31" },
      { validFrom: new Date("2026-12-01T00:00:00Z"), validUntil: new Date("2027-01-01T00:00:00Z") },
    ],
    ["a total limit and first order only", { ...percentForm, maxRedemptions: "100", firstOrderOnly: "yes" }, { maxRedemptions: 100, firstOrderOnly: true }],
    ["percent at its bounds", { ...percentForm, percent: "90" }, { reduction: { kind: "percent", percent: 90 } }],
  ])("takes %s", (_, fields, expected) => {
    const read = readCodeForm(form(fields));
    expect(read.ok ? read.terms : read.errors).toMatchObject({ active: true, ...expected });
  });

  it.each<[string, Record<string, string | string[]>, string[]]>([
    ["a code with other characters", { ...percentForm, code: "SUMMER%" }, ["code"]],
    ["a code too short", { ...percentForm, code: "AB" }, ["code"]],
    ["no kind", { code: "NOKIND" }, ["kind"]],
    ["percent 0", { ...percentForm, percent: "0" }, ["percent"]],
    ["percent above 90", { ...percentForm, percent: "91" }, ["percent"]],
    ["percent not whole", { ...percentForm, percent: "12.5" }, ["percent"]],
    ["an amount code with no amount", { code: "NOAMOUNT", kind: "amount" }, ["amount"]],
    ["an amount that is not one", { code: "BADAMOUNT", kind: "amount", amount_EUR: "5 €", amount_GBP: "0" }, ["amount_EUR", "amount_GBP"]],
    ["a minimum that is not an amount", { ...percentForm, minimum_SEK: "-3" }, ["minimum_SEK"]],
    ["an unknown market", { ...percentForm, country: ["DE", "US"] }, ["country"]],
    ["a day that does not exist", { ...percentForm, validFrom: "2026-02-30" }, ["validFrom"]],
    ["an end before the start", { ...percentForm, validFrom: "2026-12-10", validUntil: "2026-12-09" }, ["validUntil"]],
    ["a limit of 0", { ...percentForm, maxRedemptions: "0" }, ["maxRedemptions"]],
    ["a limit that is not a number", { ...percentForm, maxRedemptions: "ten" }, ["maxRedemptions"]],
    ["several problems at once", { code: "x", kind: "percent", percent: "100", maxRedemptions: "-1" }, ["code", "percent", "maxRedemptions"]],
  ])("refuses %s, naming each field", (_, fields, refused) => {
    const read = readCodeForm(form(fields));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(Object.keys(read.errors).sort()).toEqual([...refused].sort());
  });

  it("keeps what was typed in a refused form", () => {
    const read = readCodeForm(form({ code: " summer% ", kind: "amount", amount_EUR: "5,00", minimum_GBP: "abc", country: ["FI"], validUntil: "2026-12-31", firstOrderOnly: "yes" }));
    expect(read.ok).toBe(false);
    expect(read.draft).toMatchObject({ code: "summer%", kind: "amount", amounts: { EUR: "5,00" }, minimums: { GBP: "abc" }, countries: ["FI"], validUntil: "2026-12-31", oncePerCustomer: false, firstOrderOnly: true });
  });

  it.each<[string, number | null]>([
    ["5", 500],
    ["5,00", 500],
    ["5.5", 550],
    ["1 299,90", 129990],
    ["0,05", 5],
    ["5,001", null],
    ["-5", null],
    ["", null],
    ["5e2", null],
  ])("reads %j as %s minor units", (typed, minor) => {
    expect(minorUnitsOf(typed)).toBe(minor);
  });
});
