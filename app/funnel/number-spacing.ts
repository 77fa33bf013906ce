const NO_BREAK_SPACE = "\u00A0";

/**
 * Keeps a number on one line with its unit and its thousands ("3 g", "2 Kapseln", "1 000 mg"):
 * the space after a digit becomes a no-break space when a unit, a word or a group of three
 * digits follows. Content is written with plain spaces; this runs when it is loaded.
 */
export function keepNumbersWithUnits(text: string): string {
  return text.replace(/(?<=\d) (?=[\p{L}%°µ]|\d{3}(?!\d))/gu, NO_BREAK_SPACE);
}
