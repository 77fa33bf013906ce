import { StoreImage } from "../image/store-image";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";

const paymentMethods = ["card", "paypal", "bank"] as const;

/** The market's flag and name (from `Intl`, in the market's language) and the payment methods. */
export function PaymentAndDelivery() {
  const t = useTranslate();
  const { market } = useStorefront();
  const region = market.country.slice(0, 2);
  const countryName = new Intl.DisplayNames([market.languageTag], { type: "region" }).of(region) ?? region;
  return (
    <div className="payment-delivery">
      <p className="payment-delivery__country">
        <StoreImage src={`flags/${region.toLowerCase()}.svg`} preset="flag" alt="" />
        <span suppressHydrationWarning>{t("footer.deliveringTo", { country: countryName })}</span>
      </p>
      <ul className="payment-delivery__methods" aria-label={t("footer.paymentMethods")}>
        {paymentMethods.map((method) => (
          <li key={method}>
            <StoreImage src={`payment/${method}.svg`} preset="payment" alt={t(`payment.${method}`)} />
          </li>
        ))}
      </ul>
    </div>
  );
}
