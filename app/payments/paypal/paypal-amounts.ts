/**
 * PayPal takes amounts as decimal strings ("12.90"), we keep integer minor units (1290). The
 * conversion is done on digits, never through floating point, and only for currencies whose
 * decimals PayPal documents: an unknown currency is an error rather than a guess.
 */

/** Decimals PayPal accepts per currency; HUF, JPY and TWD take whole numbers only at PayPal. */
const currencyDecimals: Readonly<Record<string, number>> = {
  EUR: 2,
  GBP: 2,
  SEK: 2,
  DKK: 2,
  CHF: 2,
  NOK: 2,
  PLN: 2,
  CZK: 2,
  USD: 2,
  HUF: 0,
  JPY: 0,
  TWD: 0,
};

export function payPalCurrencyDecimals(currency: string): number {
  const decimals = currencyDecimals[currency];
  if (decimals === undefined) throw new RangeError(`PayPal amounts in ${JSON.stringify(currency)} are not supported here`);
  return decimals;
}

/** 1290 EUR → "12.90"; 5 EUR → "0.05"; 1290 JPY → "1290". */
export function minorToPayPalValue(amountMinor: number, currency: string): string {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) throw new RangeError(`An amount must be a whole, non-negative number of minor units, got ${amountMinor}`);
  const decimals = payPalCurrencyDecimals(currency);
  if (decimals === 0) return String(amountMinor);
  const digits = String(amountMinor).padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/** "12.90" EUR → 1290; "12.9" → 1290; "12" → 1200. More decimals than the currency has is an error. */
export function payPalValueToMinor(value: string, currency: string): number {
  const decimals = payPalCurrencyDecimals(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  const fraction = match?.[2] ?? "";
  if (!match || fraction.length > decimals) throw new RangeError(`${JSON.stringify(value)} is not an amount in ${currency}`);
  const minor = Number(`${match[1]}${fraction.padEnd(decimals, "0")}`);
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${JSON.stringify(value)} is too large an amount`);
  return minor;
}
