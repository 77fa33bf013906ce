import { markets, type CountryCode, type CurrencyCode } from "../market/markets";
import { normalizeCode, type CodeTerms } from "./code-terms";

/**
 * The back office's form for a new code, read into its terms. Every field is checked, so a refused
 * form names each field's problem at once; what was typed is kept to show the form again.
 */

export const codeCurrencies: readonly CurrencyCode[] = [...new Set(markets.map((market) => market.currency))];
export const codeCountries: readonly CountryCode[] = markets.map((market) => market.country);

export const maxPercent = 90;
/** What an integer column holds, with room: no real limit is near it. */
const maxCount = 1_000_000_000;

/** The form as typed. */
export interface CodeDraft {
  code: string;
  kind: string;
  percent: string;
  amounts: Partial<Record<CurrencyCode, string>>;
  minimums: Partial<Record<CurrencyCode, string>>;
  countries: string[];
  validFrom: string;
  validUntil: string;
  maxRedemptions: string;
  oncePerCustomer: boolean;
  firstOrderOnly: boolean;
}

export const emptyCodeDraft: CodeDraft = {
  code: "",
  kind: "percent",
  percent: "",
  amounts: {},
  minimums: {},
  countries: [],
  validFrom: "",
  validUntil: "",
  maxRedemptions: "",
  oncePerCustomer: true,
  firstOrderOnly: false,
};

/** Each refused field's reason, by the field's name (`code`, `amount_EUR`, `validUntil`). */
export type CodeFormErrors = Record<string, string>;

export type CodeFormResult = { ok: true; terms: CodeTerms; draft: CodeDraft } | { ok: false; errors: CodeFormErrors; draft: CodeDraft };

export function draftOf(form: URLSearchParams): CodeDraft {
  const perCurrency = (prefix: string) => Object.fromEntries(codeCurrencies.map((currency) => [currency, (form.get(`${prefix}_${currency}`) ?? "").trim()]));
  return {
    code: (form.get("code") ?? "").trim(),
    kind: form.get("kind") ?? "",
    percent: (form.get("percent") ?? "").trim(),
    amounts: perCurrency("amount"),
    minimums: perCurrency("minimum"),
    countries: form.getAll("country"),
    validFrom: (form.get("validFrom") ?? "").trim(),
    validUntil: (form.get("validUntil") ?? "").trim(),
    maxRedemptions: (form.get("maxRedemptions") ?? "").trim(),
    oncePerCustomer: form.has("oncePerCustomer"),
    firstOrderOnly: form.has("firstOrderOnly"),
  };
}

/**
 * An amount typed in major units ("5", "5,00", "12.5") in minor units; null when it is not one.
 * Every currency the store sells in has two decimals.
 */
export function minorUnitsOf(typed: string): number | null {
  const found = /^(\d{1,7})(?:[.,](\d{1,2}))?$/.exec(typed.replace(/\s/g, ""));
  if (!found) return null;
  return Number(found[1]) * 100 + Number((found[2] ?? "0").padEnd(2, "0"));
}

/** The first moment of a day typed as `2026-12-31` (UTC), or null for anything that is not a real day. */
function dayStart(typed: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(typed)) return null;
  const date = new Date(`${typed}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === typed ? date : null;
}

const dayMs = 24 * 60 * 60 * 1000;

export function readCodeForm(form: URLSearchParams): CodeFormResult {
  const draft = draftOf(form);
  const errors: CodeFormErrors = {};

  const code = normalizeCode(draft.code);
  if (!code) errors.code = "A code is 3 to 32 letters (A to Z) and digits; spaces and dashes are left out, and case does not matter.";

  let reduction: CodeTerms["reduction"] | null = null;
  if (draft.kind === "percent") {
    const percent = /^\d{1,3}$/.test(draft.percent) ? Number(draft.percent) : NaN;
    if (percent >= 1 && percent <= maxPercent) reduction = { kind: "percent", percent };
    else errors.percent = `Percent off is a whole number from 1 to ${maxPercent}.`;
  } else if (draft.kind === "amount") {
    const amountMinor: Partial<Record<CurrencyCode, number>> = {};
    for (const currency of codeCurrencies) {
      const typed = draft.amounts[currency] ?? "";
      if (typed === "") continue;
      const minor = minorUnitsOf(typed);
      if (minor === null || minor === 0) errors[`amount_${currency}`] = `The amount off in ${currency} is a positive amount such as 5 or 5,00.`;
      else amountMinor[currency] = minor;
    }
    if (Object.keys(amountMinor).length > 0) reduction = { kind: "amount", amountMinor };
    else if (!codeCurrencies.some((currency) => errors[`amount_${currency}`])) errors.amount = "Give the amount off in at least one currency; a market whose currency has none does not take the code.";
  } else {
    errors.kind = "Choose percent off or an amount off.";
  }

  const minimumMinor: Partial<Record<CurrencyCode, number>> = {};
  for (const currency of codeCurrencies) {
    const typed = draft.minimums[currency] ?? "";
    if (typed === "") continue;
    const minor = minorUnitsOf(typed);
    if (minor === null) errors[`minimum_${currency}`] = `The minimum order in ${currency} is an amount such as 30 or 29,90.`;
    else minimumMinor[currency] = minor;
  }

  const unknownCountries = draft.countries.filter((country) => !(codeCountries as readonly string[]).includes(country));
  if (unknownCountries.length > 0) errors.country = `Not a market of the store: ${unknownCountries.join(", ")}.`;

  const validFrom = draft.validFrom === "" ? null : dayStart(draft.validFrom);
  if (draft.validFrom !== "" && !validFrom) errors.validFrom = "The first day is a date such as 2026-12-01.";
  const lastDay = draft.validUntil === "" ? null : dayStart(draft.validUntil);
  if (draft.validUntil !== "" && !lastDay) errors.validUntil = "The last day is a date such as 2026-12-31.";
  // The last day is valid to its end: the code stops at the next midnight (UTC).
  const validUntil = lastDay ? new Date(lastDay.getTime() + dayMs) : null;
  if (validFrom && lastDay && lastDay < validFrom) errors.validUntil = "The last day comes before the first day.";

  const maxRedemptions = draft.maxRedemptions === "" ? null : /^\d{1,10}$/.test(draft.maxRedemptions) ? Number(draft.maxRedemptions) : NaN;
  if (maxRedemptions !== null && !(maxRedemptions >= 1 && maxRedemptions <= maxCount)) errors.maxRedemptions = "Total redemptions is a whole number of at least 1, or empty for no limit.";

  if (Object.keys(errors).length > 0 || !code || !reduction) return { ok: false, errors, draft };
  return {
    ok: true,
    draft,
    terms: {
      code,
      reduction,
      minimumMinor,
      countries: codeCountries.filter((country) => draft.countries.includes(country)),
      validFrom,
      validUntil,
      maxRedemptions,
      oncePerCustomer: draft.oncePerCustomer,
      firstOrderOnly: draft.firstOrderOnly,
      active: true,
    },
  };
}
