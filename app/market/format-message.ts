import { TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";

/** The `Intl` objects a translator shares between its messages (building them is the costly part). */
export interface MessageIntl {
  number(): Intl.NumberFormat;
  pluralRules(type: Intl.PluralRulesOptions["type"]): Intl.PluralRules;
}

/** The element kinds the storefront's messages use, and all this formatter knows. */
export const formattedElementTypes: ReadonlySet<TYPE> = new Set([TYPE.literal, TYPE.argument, TYPE.select, TYPE.plural, TYPE.pound]);

/**
 * Formats an already parsed ICU message into its parts, text next to text joined, as
 * `intl-messageformat`'s `formatToParts` does for these element kinds: text, `{name}`,
 * `{name, select, …}`, `{count, plural, …}` (exact `=n` cases first, then the locale's plural
 * rule, with `offset`) and `#`. Written here because that library and its helpers are about
 * 2 KB of compressed JavaScript on every page, for a loop this size
 * (docs/decisions/0047-the-browser-formats-messages-itself.md). Its test runs every message of
 * every locale through both and keeps them equal, and fails on a message that uses another
 * element kind (a number, date or tag format), which this formatter refuses.
 */
export function formatMessageParts<T>(elements: readonly MessageFormatElement[], intl: MessageIntl, values: Readonly<Record<string, string | number | T>>, pluralValue?: number): (string | T)[] {
  const parts: (string | T)[] = [];
  const push = (part: string | T) => {
    const last = parts.length - 1;
    if (typeof part === "string" && typeof parts[last] === "string") parts[last] += part;
    else parts.push(part);
  };
  for (const element of elements) {
    if (element.type === TYPE.literal) {
      push(element.value);
      continue;
    }
    if (element.type === TYPE.pound) {
      if (pluralValue !== undefined) push(intl.number().format(pluralValue));
      continue;
    }
    if (!(element.value in values)) throw new Error(`The message needs a value for "${element.value}"`);
    const value = values[element.value] as string | number | T;
    if (element.type === TYPE.argument) {
      push(typeof value === "string" || typeof value === "number" ? String(value) : value || "");
    } else if (element.type === TYPE.select) {
      const option = Object.hasOwn(element.options, String(value)) ? element.options[String(value)] : element.options.other;
      if (!option) throw new Error(`No case of "${element.value}" for ${String(value)}`);
      for (const part of formatMessageParts(option.value, intl, values)) push(part);
    } else if (element.type === TYPE.plural) {
      const count = Number(value);
      const exact = Object.hasOwn(element.options, `=${String(value)}`) ? element.options[`=${String(value)}`] : undefined;
      const option = exact ?? element.options[intl.pluralRules(element.pluralType).select(count - element.offset)] ?? element.options.other;
      if (!option) throw new Error(`No case of "${element.value}" for ${String(value)}`);
      for (const part of formatMessageParts(option.value, intl, values, count - element.offset)) push(part);
    } else {
      throw new Error(`Messages with ${TYPE[element.type]} formats are not formatted in the storefront ("${element.value}")`);
    }
  }
  return parts;
}
