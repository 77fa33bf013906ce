import type { CodeTerms } from "../codes/code-terms";

/** A code's terms for tests: 10 % off, no limits but once per customer, unless `overrides` say otherwise. */
export const codeTerms = (code: string, overrides: Partial<CodeTerms> = {}): CodeTerms => ({
  code,
  reduction: { kind: "percent", percent: 10 },
  minimumMinor: {},
  countries: [],
  validFrom: null,
  validUntil: null,
  maxRedemptions: null,
  oncePerCustomer: true,
  firstOrderOnly: false,
  active: true,
  ...overrides,
});
