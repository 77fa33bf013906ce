import { useLocation } from "react-router";
import { FunnelLink } from "../funnel/funnel-link";
import { useCarriedSearch } from "../funnel/carried-search";
import { orderTarget } from "../funnel/order-target";
import { useRouteName } from "../funnel/route-name";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";

export interface OrderNowButtonProps {
  /** Lead to the offer for this funnel variant (decision 41); otherwise scroll to the products section. */
  navigate?: boolean;
  label?: string;
  /** Disabled, with a spinner and `aria-busy`. */
  loading?: boolean;
  /** When false the button is shown but does nothing. */
  clickable?: boolean;
}

function scrollToProducts(): void {
  const products = document.getElementById("products");
  if (!products) return;
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  products.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
  products.focus({ preventScroll: true });
}

export function OrderNowButton({ navigate = true, label, loading = false, clickable = true }: OrderNowButtonProps) {
  const t = useTranslate();
  const { market } = useStorefront();
  const { pathname } = useLocation();
  const search = useCarriedSearch();
  const routeName = useRouteName();
  const text = label ?? t("common.orderNow");
  const className = "button button--primary button--order";

  if (loading) {
    return (
      <button type="button" className={className} data-testid="order-now" disabled aria-busy="true">
        <span className="spinner" aria-hidden="true" />
        {text}
        <span className="visually-hidden">{t("orderNow.loading")}</span>
      </button>
    );
  }
  if (!clickable) {
    return (
      <button type="button" className={className} data-testid="order-now" aria-disabled="true">
        {text}
      </button>
    );
  }
  if (navigate) {
    const target = orderTarget({ routeName, pathname, search, routeValue: market.routeValue });
    return (
      <FunnelLink to={target} className={className} data-testid="order-now">
        {text}
      </FunnelLink>
    );
  }
  return (
    <button type="button" className={className} data-testid="order-now" onClick={scrollToProducts}>
      {text}
    </button>
  );
}
