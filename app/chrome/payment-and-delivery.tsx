import { markets as methodsByMarket } from "../../content/commerce/payment-methods.json";
import { StoreImage } from "../image/store-image";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";

/** Cards and PayPal accounts are described in the page's language; other methods by their brand. */
const described = { card: "payment.card", paypal: "payment.paypal" } as const;
const brandNames: Readonly<Record<string, string>> = {
  bancontact: "Bancontact",
  eps: "eps-Überweisung",
  swish: "Swish",
  mobilepay: "MobilePay",
  twint: "TWINT",
  klarna: "Klarna",
};

/** The payment methods the visitor's market offers, as badges named in the page's language. */
export function PaymentMethods({ testId = "payment-methods" }: { testId?: string }) {
  const t = useTranslate();
  const { market } = useStorefront();
  const methods: readonly string[] = methodsByMarket[market.country];
  return (
    <ul className="payment-delivery__methods" aria-label={t("footer.paymentMethods")} data-testid={testId}>
      {methods.map((method) => (
        <li key={method}>
          <StoreImage src={`payment/${method}.svg`} preset="payment" alt={method in described ? t(described[method as keyof typeof described]) : (brandNames[method] ?? method)} />
        </li>
      ))}
    </ul>
  );
}

/** The market's flag and name (in the market's language) and the payment methods it offers. */
export function PaymentAndDelivery() {
  const t = useTranslate();
  const { market, countryName } = useStorefront();
  const region = market.country.slice(0, 2);
  return (
    <div className="payment-delivery">
      <p className="payment-delivery__country">
        <StoreImage src={`flags/${region.toLowerCase()}.svg`} preset="flag" alt="" />
        <span>{t("footer.deliveringTo", { country: countryName })}</span>
      </p>
      <PaymentMethods />
    </div>
  );
}
