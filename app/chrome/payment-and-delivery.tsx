import { useEffect, useState } from "react";
import { StoreImage } from "../image/store-image";
import { paymentMarkText, paymentMarksFor, paymentSetupOf, unknownPaymentSetup, type PaymentSetup } from "../payments/payment-setup";
import { afterPageLoad } from "../platform/idle";
import { fetchRuntimeSettings } from "../platform/runtime-settings";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";

/**
 * Which providers take payments is known when the server starts, not when pages are prerendered,
 * so the marks appear once the page has loaded; the row keeps its height meanwhile.
 */
function usePaymentSetup(): PaymentSetup {
  const [setup, setSetup] = useState(unknownPaymentSetup);
  useEffect(() => {
    let current = true;
    const cancel = afterPageLoad(() => {
      void fetchRuntimeSettings().then(({ paymentProviders }) => {
        if (current) setSetup(paymentSetupOf(paymentProviders));
      });
    });
    return () => {
      current = false;
      cancel();
    };
  }, []);
  return setup;
}

/** The payment methods the visitor's market offers with the store's providers, as badges named in the page's language. */
export function PaymentMethods({ testId = "payment-methods" }: { testId?: string }) {
  const t = useTranslate();
  const { market } = useStorefront();
  const methods = paymentMarksFor(market.country, usePaymentSetup());
  return (
    <ul className="payment-delivery__methods" aria-label={t("footer.paymentMethods")} data-testid={testId}>
      {methods.map((method) => (
        <li key={method}>
          <StoreImage src={`payment/${method}.svg`} preset="payment" alt={paymentMarkText(method, t)} />
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
