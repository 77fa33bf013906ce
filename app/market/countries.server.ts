import clm from "country-locale-map";

/**
 * The country reference dataset, on the server only (docs/architecture.md, 'Markets'): it reads a
 * country written as a name in a geo header. It is reference data, never a source of prices or
 * currencies (it has known errors: Venezuela with the vatu).
 */

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
