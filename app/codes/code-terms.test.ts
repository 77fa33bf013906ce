import { describe, expect, it } from "vitest";
import { customerKey, discountOf, normalizeCode, refusalOf, smallestLinesFor, type CodeTerms, type RedemptionContext } from "./code-terms";
import { codeTerms } from "../test-support/code-terms";

const terms = (overrides: Partial<CodeTerms> = {}): CodeTerms => codeTerms("SPRING15", { reduction: { kind: "percent", percent: 15 }, ...overrides });

const context = (overrides: Partial<RedemptionContext> = {}): RedemptionContext => ({
  country: "DE",
  currency: "EUR",
  linesMinor: 8970,
  now: new Date("2026-11-27T12:00:00Z"),
  redemptionsTaken: 0,
  usedByBuyer: false,
  buyerHasEarlierOrder: false,
  ...overrides,
});

describe("normalizeCode", () => {
  it.each<[string, string | null]>([
    ["welcome10", "WELCOME10"],
    ["  Spring 15 ", "SPRING15"],
    ["ab-12-cd", "AB12CD"],
    ["", null],
    ["ab", null],
    ["ÉTÉ2026", null],
    ["DROP TABLE;", null],
    ["A".repeat(33), null],
  ])("%j → %j", (input, code) => {
    expect(normalizeCode(input)).toBe(code);
  });
});

describe("refusalOf", () => {
  it.each<[string, Partial<CodeTerms>, Partial<RedemptionContext>, ReturnType<typeof refusalOf>]>([
    ["a valid code", {}, {}, null],
    ["a deactivated code reads as unknown", { active: false }, {}, "unknown"],
    ["before its start", { validFrom: new Date("2026-12-01T00:00:00Z") }, {}, "not_yet_valid"],
    ["at its end", { validUntil: new Date("2026-11-27T12:00:00Z") }, {}, "expired"],
    ["a minute before its end", { validUntil: new Date("2026-11-27T12:01:00Z") }, {}, null],
    ["in another market", { countries: ["FR", "BE"] }, {}, "market"],
    ["in one of its markets", { countries: ["FR", "DE"] }, {}, null],
    ["an amount with none in this currency", { reduction: { kind: "amount", amountMinor: { EUR: 500 } } }, { country: "SE", currency: "SEK" }, "market"],
    ["an amount in this currency", { reduction: { kind: "amount", amountMinor: { EUR: 500, SEK: 5000 } } }, { country: "SE", currency: "SEK" }, null],
    ["its last redemption taken", { maxRedemptions: 100 }, { redemptionsTaken: 100 }, "used"],
    ["one redemption left", { maxRedemptions: 100 }, { redemptionsTaken: 99 }, null],
    ["used by this buyer", {}, { usedByBuyer: true }, "used"],
    ["used by this buyer, but not once per customer", { oncePerCustomer: false }, { usedByBuyer: true }, null],
    ["first order only, for a returning buyer", { firstOrderOnly: true }, { buyerHasEarlierOrder: true }, "not_first_order"],
    ["first order only, for a new buyer", { firstOrderOnly: true }, {}, null],
    ["under its minimum", { minimumMinor: { EUR: 9000 } }, {}, "minimum"],
    ["at its minimum", { minimumMinor: { EUR: 8970 } }, {}, null],
    ["a minimum in another currency only", { minimumMinor: { GBP: 99_000 } }, {}, null],
    ["an amount as large as the lines: nothing would be left to pay", { reduction: { kind: "amount", amountMinor: { EUR: 8970 } } }, {}, "minimum"],
    ["an amount above the lines, with no minimum set", { reduction: { kind: "amount", amountMinor: { EUR: 5000 } } }, { linesMinor: 990 }, "minimum"],
    ["an amount one cent below the lines", { reduction: { kind: "amount", amountMinor: { EUR: 8969 } } }, {}, null],
    ["an amount above the lines, though over its own minimum", { reduction: { kind: "amount", amountMinor: { EUR: 5000 } }, minimumMinor: { EUR: 500 } }, { linesMinor: 990 }, "minimum"],
  ])("%s", (_name, termOverrides, contextOverrides, refusal) => {
    expect(refusalOf(terms(termOverrides), context(contextOverrides))).toBe(refusal);
  });
});

describe("smallestLinesFor", () => {
  it.each<[string, Partial<CodeTerms>, number]>([
    ["a percent code with no minimum takes any lines", {}, 0],
    ["a percent code's own minimum", { minimumMinor: { EUR: 9000 } }, 9000],
    ["an amount code needs one cent more than its amount", { reduction: { kind: "amount", amountMinor: { EUR: 5000 } } }, 5001],
    ["an amount code's own minimum when it is higher", { reduction: { kind: "amount", amountMinor: { EUR: 5000 } }, minimumMinor: { EUR: 6000 } }, 6000],
    ["an amount code's amount when its own minimum is lower", { reduction: { kind: "amount", amountMinor: { EUR: 5000 } }, minimumMinor: { EUR: 1000 } }, 5001],
  ])("%s", (_name, termOverrides, smallest) => {
    expect(smallestLinesFor(terms(termOverrides), "EUR")).toBe(smallest);
  });
});

describe("discountOf", () => {
  it.each<[string, Parameters<typeof discountOf>, number]>([
    ["10 % of 89,70", [{ kind: "percent", percent: 10 }, "EUR", 8970], 897],
    ["10 % rounds half up", [{ kind: "percent", percent: 10 }, "EUR", 8975], 898],
    ["90 % of 1,00", [{ kind: "percent", percent: 90 }, "EUR", 100], 90],
    ["an amount in the currency", [{ kind: "amount", amountMinor: { EUR: 500, SEK: 5000 } }, "SEK", 69_900], 5000],
    ["an amount never above the lines", [{ kind: "amount", amountMinor: { EUR: 5000 } }, "EUR", 3990], 3990],
    ["no amount in the currency", [{ kind: "amount", amountMinor: { EUR: 500 } }, "GBP", 3990], 0],
  ])("%s", (_name, args, discount) => {
    expect(discountOf(...args)).toBe(discount);
  });
});

describe("customerKey", () => {
  it.each<[string, string]>([
    ["  Lena.Schmidt@Example.COM ", "lena.schmidt@example.com"],
    ["lena+shop@example.com", "lena@example.com"],
    ["Lena+a+b@Example.com", "lena@example.com"],
    ["lena.schmidt+x@web.de", "lena.schmidt@web.de"],
    ["Lena.Schmidt@gmail.com", "lenaschmidt@gmail.com"],
    ["l.e.n.a+promo@GoogleMail.com", "lena@gmail.com"],
    ["lena@gmail.com.example.org", "lena@gmail.com.example.org"],
    ["no-at-sign", "no-at-sign"],
  ])("%j → %j", (email, key) => {
    expect(customerKey(email)).toBe(key);
  });
});
