import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { formatToParts, IntlMessageFormat, PART_TYPE, type Formatters } from "intl-messageformat";
import { Fragment, type ReactNode } from "react";
import { useStorefront, type Messages } from "./storefront-context";

export type MessageValues = Record<string, string | number>;
export type RichMessageValues = Record<string, ReactNode>;

export interface Translate {
  (key: string, values?: MessageValues): string;
  /** The same message with elements among its values: `t.rich("banner.offer", { percent: <b>25 %</b> })`. */
  rich(key: string, values: RichMessageValues): ReactNode;
}

/**
 * `Intl` formatters shared by every message of a translator. Building them is the costly part of
 * formatting (a plural rule or number format per message added up during hydration).
 */
function sharedFormatters(): Formatters {
  const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();
  function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(kind: string, args: unknown[], create: () => T): T {
    const key = `${kind}${JSON.stringify(args)}`;
    let formatter = cache.get(key) as T | undefined;
    if (!formatter) {
      formatter = create();
      cache.set(key, formatter);
    }
    return formatter;
  }
  return {
    getNumberFormat: (...args) => cached("number", args, () => new Intl.NumberFormat(...(args as ConstructorParameters<typeof Intl.NumberFormat>))),
    getDateTimeFormat: (...args) => cached("date", args, () => new Intl.DateTimeFormat(...args)),
    getPluralRules: (...args) => cached("plural", args, () => new Intl.PluralRules(...args)),
  };
}

/**
 * Formats a parsed message as `IntlMessageFormat#format` does: one value, or the parts with
 * adjacent text joined. The messages arrive parsed, so no `IntlMessageFormat` is constructed
 * (its constructor resolves the locale against the engine's list every time, for the parser).
 */
function formatMessage<T>(message: MessageFormatElement[], languageTag: string, formatters: Formatters, values: Record<string, string | number | T>): string | T | (string | T)[] {
  const parts = formatToParts<T>(message, languageTag, formatters, IntlMessageFormat.formats, values);
  const [only] = parts;
  if (only && parts.length === 1) return only.value;
  const joined: (string | T)[] = [];
  for (const part of parts) {
    const last = joined.length - 1;
    if (part.type === PART_TYPE.literal && typeof joined[last] === "string") joined[last] += part.value;
    else joined.push(part.value);
  }
  return joined.length <= 1 ? (joined[0] ?? "") : joined;
}

/** A translate function over one locale's parsed messages; a missing key shows as the key itself. */
function createTranslate(messages: Messages, languageTag: string, brand: string): Translate {
  const formatters = sharedFormatters();
  const t = (key: string, values?: MessageValues) => {
    const message = messages[key];
    return message === undefined ? key : String(formatMessage(message, languageTag, formatters, { brand, ...values }));
  };
  t.rich = (key: string, values: RichMessageValues): ReactNode => {
    const message = messages[key];
    if (message === undefined) return key;
    const parts = formatMessage<ReactNode>(message, languageTag, formatters, { brand, ...values });
    if (!Array.isArray(parts)) return parts;
    return parts.map((part, index) => <Fragment key={index}>{part}</Fragment>);
  };
  return t;
}

// One translator (and so one set of compiled formats) per locale's messages, shared by every
// component and, on the server, every request: the messages object lives as long as the locale.
const translators = new WeakMap<Messages, Map<string, Translate>>();

function sharedTranslate(messages: Messages, languageTag: string, brand: string): Translate {
  let byTag = translators.get(messages);
  if (!byTag) {
    byTag = new Map();
    translators.set(messages, byTag);
  }
  const key = `${languageTag}|${brand}`;
  let translate = byTag.get(key);
  if (!translate) {
    translate = createTranslate(messages, languageTag, brand);
    byTag.set(key, translate);
  }
  return translate;
}

export function useTranslate(): Translate {
  const { messages, market, config } = useStorefront();
  return sharedTranslate(messages, market.languageTag, config.brand);
}
