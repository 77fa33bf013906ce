import { FunnelLink } from "../funnel/funnel-link";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { Logo } from "./logo";

/** The simple centred header with the logo, linking back to the start of the funnel. */
export function SiteHeader() {
  const { brand } = useStorefront().config;
  const t = useTranslate();
  return (
    <header className="site-header">
      <FunnelLink to="/" className="site-header__home" aria-label={t("header.homeLink")}>
        <Logo brand={brand} />
      </FunnelLink>
    </header>
  );
}
