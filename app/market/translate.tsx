import type { MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { Fragment, type ReactNode } from "react";
import { formatMessageParts, type MessageIntl } from "./format-message";
import { useStorefront, type Messages } from "./storefront-context";

export type MessageValues = Record<string, string | number>;
export type RichMessageValues = Record<string, ReactNode>;

export interface Translate {
  (key: string, values?: MessageValues): string;
  /** The same message with elements among its values: `t.rich("banner.offer", { percent: <b>25 %</b> })`. */
  rich(key: string, values: RichMessageValues): ReactNode;
}

/**
 * `Intl` objects shared by every message of a translator. Building them is the costly part of
 * formatting (a plural rule or number format per message added up during hydration).
 */
function sharedIntl(languageTag: string): MessageIntl {
  let number: Intl.NumberFormat | undefined;
  const pluralRules = new Map<string, Intl.PluralRules>();
  return {
    number: () => (number ??= new Intl.NumberFormat(languageTag)),
    pluralRules: (type = "cardinal") => {
      let rules = pluralRules.get(type);
      if (!rules) {
        rules = new Intl.PluralRules(languageTag, { type });
        pluralRules.set(type, rules);
      }
      return rules;
    },
  };
}

/** One value when the message comes out as one part, else the parts. */
function formatMessage<T>(message: MessageFormatElement[], intl: MessageIntl, values: Record<string, string | number | T>): string | T | (string | T)[] {
  const parts = formatMessageParts<T>(message, intl, values);
  return parts.length <= 1 ? (parts[0] ?? "") : parts;
}

/** A translate function over one locale's parsed messages; a missing key shows as the key itself. */
function createTranslate(messages: Messages, languageTag: string, brand: string): Translate {
  const intl = sharedIntl(languageTag);
  const t = (key: string, values?: MessageValues) => {
    const message = messages[key];
    return message === undefined ? key : String(formatMessage(message, intl, { brand, ...values }));
  };
  t.rich = (key: string, values: RichMessageValues): ReactNode => {
    const message = messages[key];
    if (message === undefined) return key;
    const parts = formatMessage<ReactNode>(message, intl, { brand, ...values });
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
