/**
 * Postal codes of the countries we deliver to, as their postal services define them (UPU
 * postcode addressing guides). Input is normalised first: upper case, and the space the country
 * writes (GB "SW1A 1AA", SE "114 55") put where it belongs.
 */
interface PostalRule {
  pattern: RegExp;
  normalize?: (compact: string) => string;
  example: string;
}

const digits = (count: number): PostalRule => ({ pattern: new RegExp(`^\\d{${count}}$`), example: "1".repeat(count) });

export const postalRules: Readonly<Record<string, PostalRule>> = {
  FR: { ...digits(5), example: "75008" },
  DE: { ...digits(5), example: "10115" },
  BE: { pattern: /^[1-9]\d{3}$/, example: "1000" },
  AT: { pattern: /^[1-9]\d{3}$/, example: "1010" },
  CH: { pattern: /^[1-9]\d{3}$/, example: "8001" },
  DK: { pattern: /^[1-9]\d{3}$/, example: "1050" },
  FI: { ...digits(5), example: "00100" },
  IT: { ...digits(5), example: "00184" },
  // Provinces 01–52 are the first two digits.
  ES: { pattern: /^(?:0[1-9]|[1-4]\d|5[0-2])\d{3}$/, example: "28013" },
  SE: { pattern: /^[1-9]\d{2} \d{2}$/, normalize: (c) => `${c.slice(0, 3)} ${c.slice(3)}`, example: "114 55" },
  GB: {
    // Outward code (area, district) and inward code (sector, unit), e.g. SW1A 1AA, M1 1AE, B33 8TH.
    pattern: /^(?:[A-PR-UWYZ][0-9][0-9A-HJKPSTUW]?|[A-PR-UWYZ][A-HK-Y][0-9][0-9ABEHMNPRVWXY]?) [0-9][ABD-HJLNP-UW-Z]{2}$/,
    normalize: (c) => `${c.slice(0, -3)} ${c.slice(-3)}`,
    example: "SW1A 1AA",
  },
};

/** The postal code as the country writes it, or null when it is not one of that country's. */
export function normalizePostalCode(country: string, typed: string): string | null {
  const rule = postalRules[country];
  if (!rule) return null;
  const compact = typed.toUpperCase().replace(/[\s-]/g, "");
  if (compact.length === 0 || compact.length > 8) return null;
  const written = rule.normalize ? rule.normalize(compact) : compact;
  return rule.pattern.test(written) ? written : null;
}
