import { Money } from "../market/money-text";
import { useTranslate } from "../market/translate";
import type { CurrencyCode } from "../market/markets";

export interface SummaryLine {
  bundleId: string;
  productName: string;
  kind: "supplement" | "digital";
  units: number;
  grossMinor: number;
  unitPriceMinor?: number;
  /** The share of a code's discount this line carries: `grossMinor` is after it. */
  discountMinor?: number;
}

interface OrderSummaryProps {
  title: string;
  lines: readonly SummaryLine[];
  currency: CurrencyCode;
  deliveryMinor: number;
  vatMinor: number;
  totalMinor: number;
  /** A code applied at the checkout: its line shows what it takes off the lines above. */
  discount?: { code: string; discountMinor: number } | null;
  labels: { delivery: string; deliveryFree: string; vatIncluded: string; total: string; discountLine?: string };
}

/** What an order holds: lines (digital items named as such), delivery, VAT included, total. */
export function OrderSummary({ title, lines, currency, deliveryMinor, vatMinor, totalMinor, discount, labels }: OrderSummaryProps) {
  const t = useTranslate();
  return (
    <section className="order-summary" aria-labelledby="order-summary-title">
      <h2 id="order-summary-title">{title}</h2>
      <ul className="order-summary__lines">
        {lines.map((line) => (
          <li key={line.bundleId} className="order-summary__line" data-testid="order-line">
            <span>
              <span className="order-summary__name">{line.productName}</span>
              <span className="order-summary__detail">
                {line.kind === "digital" ? t("products.digital") : t("products.units", { units: line.units })}
                {line.units > 1 && line.unitPriceMinor !== undefined ? (
                  <> · {t.rich("products.unitPrice", { price: <Money minor={line.unitPriceMinor} currency={currency} /> })}</>
                ) : null}
              </span>
            </span>
            {/* With a code, a line shows its price before the code; the discount line takes it off once. */}
            <Money minor={line.grossMinor + (line.discountMinor ?? 0)} currency={currency} />
          </li>
        ))}
      </ul>
      <dl className="order-summary__totals">
        {discount ? (
          <div data-testid="discount-line">
            <dt>{(labels.discountLine ?? "{code}").replace("{code}", discount.code)}</dt>
            <dd>
              <Money minor={-discount.discountMinor} currency={currency} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{labels.delivery}</dt>
          <dd>{deliveryMinor === 0 ? labels.deliveryFree : <Money minor={deliveryMinor} currency={currency} />}</dd>
        </div>
        <div className="order-summary__total">
          <dt>{labels.total}</dt>
          <dd data-testid="order-total">
            <Money minor={totalMinor} currency={currency} />
          </dd>
        </div>
        <div className="order-summary__vat">
          <dt>{labels.vatIncluded}</dt>
          <dd>
            <Money minor={vatMinor} currency={currency} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
