import { randomInt } from "node:crypto";

/**
 * Order numbers such as `VN-7K3M-Q9XD`: short enough to read over the phone, random enough not
 * to be guessed (29⁸ ≈ 5.0 × 10¹¹), and without the characters people confuse (0/O, 1/I/L, U/V).
 */
const alphabet = "23456789ABCDEFGHJKMNPQRSTWXYZ";
const groupLength = 4;

export const orderNumberPattern = /^VN-[2-9A-HJKMNP-TW-Z]{4}-[2-9A-HJKMNP-TW-Z]{4}$/;

export function newOrderNumber(random: (max: number) => number = randomInt): string {
  const group = () => Array.from({ length: groupLength }, () => alphabet[random(alphabet.length)]).join("");
  return `VN-${group()}-${group()}`;
}

/** What a person typed, in the stored form (upper case, dashes where they belong), or null. */
export function normalizeOrderNumber(typed: string): string | null {
  const compact = typed.toUpperCase().replace(/[\s-]/g, "").replace(/^VN/, "");
  if (compact.length !== groupLength * 2) return null;
  const candidate = `VN-${compact.slice(0, groupLength)}-${compact.slice(groupLength)}`;
  return orderNumberPattern.test(candidate) ? candidate : null;
}
