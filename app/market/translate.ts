import { IntlMessageFormat } from "intl-messageformat";
import { useMemo } from "react";
import { useStorefront, type Messages } from "./storefront-context";

export type MessageValues = Record<string, string | number>;
export type Translate = (key: string, values?: MessageValues) => string;

/** A translate function over one locale's ICU messages; a missing key shows as the key itself. */
export function createTranslate(messages: Messages, languageTag: string, brand: string): Translate {
  const formats = new Map<string, IntlMessageFormat>();
  return (key, values) => {
    const message = messages[key];
    if (message === undefined) return key;
    let format = formats.get(key);
    if (!format) {
      format = new IntlMessageFormat(message, languageTag);
      formats.set(key, format);
    }
    return String(format.format({ brand, ...values }));
  };
}

export function useTranslate(): Translate {
  const { messages, market, config } = useStorefront();
  const { brand } = config;
  return useMemo(() => createTranslate(messages, market.languageTag, brand), [messages, market.languageTag, brand]);
}
