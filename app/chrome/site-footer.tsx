import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";

export function SiteFooter() {
  const { year } = useStorefront();
  const t = useTranslate();
  return (
    <footer className="site-footer" data-testid="site-footer">
      <p className="site-footer__note">{t("footer.note")}</p>
      <p className="site-footer__copyright">{t("footer.copyright", { year })}</p>
    </footer>
  );
}
