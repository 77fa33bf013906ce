import type { CurrencyCode } from "./markets";
import { formatMoney, formatPercent } from "./money";
import { useStorefront } from "./storefront-context";

/**
 * Node and the browser ship different ICU versions, which may space or group a number
 * differently; the browser keeps the server's text instead of re-rendering the page over it.
 */
export function Money({ minor, currency }: { minor: number; currency?: CurrencyCode }) {
  const { market } = useStorefront();
  return (
    <span className="money" suppressHydrationWarning>
      {formatMoney(minor, { languageTag: market.languageTag, currency: currency ?? market.currency })}
    </span>
  );
}

export function Percent({ value, testId }: { value: number; testId?: string }) {
  const { market } = useStorefront();
  return (
    <span className="percent" data-testid={testId} suppressHydrationWarning>
      {formatPercent(value, market.languageTag)}
    </span>
  );
}
