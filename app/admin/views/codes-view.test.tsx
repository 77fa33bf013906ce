import { describe, expect, it } from "vitest";
import type { StoredCode } from "../../codes/codes.server";
import { codeTerms } from "../../test-support/code-terms";
import { statusOf, termsText } from "./codes-view";

const now = new Date("2026-11-23T12:00:00Z");

const code = (overrides: Partial<StoredCode> = {}): StoredCode => ({ id: "c", welcome: false, ...codeTerms("TEN"), ...overrides });

describe("a code in the list", () => {
  it.each<[string, Partial<StoredCode>, string]>([
    ["active without an end", {}, "active"],
    ["active until its end", { validUntil: new Date("2026-11-24T00:00:00Z") }, "active"],
    ["expired from its end on", { validUntil: new Date("2026-11-23T12:00:00Z") }, "expired"],
    ["deactivated, whatever its end", { active: false, validUntil: new Date("2026-01-01T00:00:00Z") }, "deactivated"],
  ])("is %s", (_, overrides, status) => {
    expect(statusOf(code(overrides), now)).toBe(status);
  });

  it("reads its terms, its last day as the day before the stored end", () => {
    expect(
      termsText(code({ minimumMinor: { GBP: 2500, EUR: 3000 }, countries: ["DE", "AT"], validFrom: new Date("2026-12-01T00:00:00Z"), validUntil: new Date("2027-01-01T00:00:00Z"), maxRedemptions: 5, firstOrderOnly: true })),
    ).toEqual(["10 % off", "Minimum order €30.00, £25.00", "Markets DE, AT", "Valid from 2026-12-01 to 2026-12-31 included (UTC)", "At most 5 redemptions", "Once per customer", "First order only"]);
    expect(termsText(code({ oncePerCustomer: false }))).toEqual(["10 % off", "Every market", "No total limit"]);
  });
});
