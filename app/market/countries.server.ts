import { createRequire } from "node:module";
import clm from "country-locale-map";

/**
 * The country reference dataset (specification §3), on the server only: ~250 records, in two
 * variants that differ in how locales are written (`en_CA` or `en-CA`). It is reference data,
 * never a source of prices or currencies (it has known errors: Venezuela with the Vatu).
 */
export type CountryRecord = ReturnType<typeof clm.getAllCountries>[number];
export type DatasetVariant = "underscore" | "hyphen";

// The package picks one variant per process from CLM_MODE at load time; the other is its data
// file, read directly so that both are available side by side.
const require = createRequire(import.meta.url);
const datasets: Record<DatasetVariant, () => CountryRecord[]> = {
  underscore: () => require("country-locale-map/countries.json") as CountryRecord[],
  hyphen: () => require("country-locale-map/countries-intl.json") as CountryRecord[],
};

export function allCountries(variant: DatasetVariant = "underscore"): CountryRecord[] {
  return datasets[variant]();
}

export function countryByAlpha2(alpha2: string, variant: DatasetVariant = "underscore"): CountryRecord | undefined {
  const code = alpha2.toUpperCase();
  return allCountries(variant).find((country) => country.alpha2 === code);
}

/** Names worth looking up: letters, spaces and a little punctuation, at most 64 characters. */
const plausibleName = /^[\p{L}][\p{L} .'’(),-]{1,63}$/u;

/**
 * The alpha-2 code of a country named in words ("France", "Germny"): exact match first, then the
 * library's fuzzy match, which it accepts at a score of 60 or more. Anything that does not look
 * like a name is not looked up, so hostile input costs nothing.
 */
export function alpha2ByCountryName(name: string): string | undefined {
  const trimmed = name.trim();
  if (!plausibleName.test(trimmed)) return undefined;
  return clm.getAlpha2ByName(trimmed, true);
}
