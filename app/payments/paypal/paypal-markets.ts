import type { CountryCode } from "../../market/markets";

/**
 * Markets where PayPal cannot keep the buyer's account for later charges (vaulting), so one-click
 * upsells would fail after the first payment. The offer content leaves PayPal out there; this list
 * says why, and lets code check the same rule.
 */
export const payPalVaultUnavailableCountries: readonly CountryCode[] = ["CH", "CH-FR"];

export function payPalCanVault(country: CountryCode): boolean {
  return !payPalVaultUnavailableCountries.includes(country);
}
