import { FunnelLink } from "../funnel/funnel-link";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { Logo } from "./logo";

/** The simple centred header with the logo; the feedback variant adds its title and no link. */
export function SiteHeader({ variant = "simple" }: { variant?: "simple" | "feedback" }) {
  const { brand } = useStorefront().config;
  const t = useTranslate();
  if (variant === "feedback") {
    return (
      <header className="site-header site-header--feedback">
        <Logo brand={brand} />
        <p className="site-header__title">{t("header.feedback")}</p>
      </header>
    );
  }
  return (
    <header className="site-header">
      <FunnelLink to="/" className="site-header__home" aria-label={t("header.homeLink")}>
        <Logo brand={brand} />
      </FunnelLink>
    </header>
  );
}
