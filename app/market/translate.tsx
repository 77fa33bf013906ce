import { IntlMessageFormat } from "intl-messageformat";
import { Fragment, type ReactNode } from "react";
import { useStorefront, type Messages } from "./storefront-context";

export type MessageValues = Record<string, string | number>;
export type RichMessageValues = Record<string, ReactNode>;

export interface Translate {
  (key: string, values?: MessageValues): string;
  /** The same message with elements among its values: `t.rich("banner.offer", { percent: <b>25 %</b> })`. */
  rich(key: string, values: RichMessageValues): ReactNode;
}

/** A translate function over one locale's parsed messages; a missing key shows as the key itself. */
export function createTranslate(messages: Messages, languageTag: string, brand: string): Translate {
  const formats = new Map<string, IntlMessageFormat>();
  const formatOf = (key: string) => {
    const message = messages[key];
    if (message === undefined) return undefined;
    let format = formats.get(key);
    if (!format) {
      format = new IntlMessageFormat(message, languageTag);
      formats.set(key, format);
    }
    return format;
  };
  const t = (key: string, values?: MessageValues) => String(formatOf(key)?.format({ brand, ...values }) ?? key);
  t.rich = (key: string, values: RichMessageValues): ReactNode => {
    const parts = formatOf(key)?.format<ReactNode>({ brand, ...values }) ?? key;
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
