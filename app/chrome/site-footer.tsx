import { useEffect, useRef } from "react";
import { useAnalytics } from "../analytics/analytics";
import { useCarriedSearch } from "../funnel/carried-search";
import { FunnelLink } from "../funnel/funnel-link";
import { routePath, withQuery } from "../funnel/paths";
import { useRouteName } from "../funnel/route-name";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { footerBehaviour } from "../legal/footer-rules";
import { useOpenInfoModal } from "../legal/info-modal-context";
import { PaymentAndDelivery } from "./payment-and-delivery";
import type { ModalSection } from "../legal/legal-texts";

function ModalLink({ section, testId, label }: { section: ModalSection; testId: string; label: string }) {
  const openModal = useOpenInfoModal();
  return (
    <button type="button" className="link-button" data-testid={testId} onClick={() => openModal(section)}>
      {label}
    </button>
  );
}

function TermsLink({ newTab }: { newTab: boolean }) {
  const t = useTranslate();
  const { market } = useStorefront();
  const search = useCarriedSearch();
  const path = routePath("terms-2", market.routeValue);
  if (!newTab) {
    return (
      <FunnelLink to={path} data-testid="footer-terms">
        {t("footer.terms")}
      </FunnelLink>
    );
  }
  return (
    <a href={withQuery(path, search)} target="_blank" rel="noopener" data-testid="footer-terms">
      {t("footer.terms")} <span className="visually-hidden">{t("footer.newTab")}</span>
    </a>
  );
}

function ContactDetails() {
  const t = useTranslate();
  const { contact } = useStorefront().config;
  return (
    <address className="site-footer__contact">
      <span>
        {t("footer.phone")}:{" "}
        <a href={`tel:${contact.phone.replace(/\s/g, "")}`} data-testid="footer-phone">
          {contact.phone}
        </a>
      </span>
      <span>
        {t("footer.email")}:{" "}
        <a href={`mailto:${contact.email}`} data-testid="footer-email">
          {contact.email}
        </a>
      </span>
      <span data-testid="footer-address">
        <span className="visually-hidden">{t("footer.address")}: </span>
        {contact.addressLines.map((line) => (
          <span className="site-footer__address-line" key={line}>
            {line}
          </span>
        ))}
      </span>
    </address>
  );
}

/** Legal links, contact details outside the landing routes, copyright (decision 41). */
export function SiteFooter() {
  const t = useTranslate();
  const { year, config, market } = useStorefront();
  const behaviour = footerBehaviour(useRouteName());
  const analytics = useAnalytics();
  const footer = useRef<HTMLElement>(null);
  useEffect(() => {
    // The footer hydrates after the page (decision record 20): this tells browser tests, as
    // <html data-hydrated> does for the page, that its buttons now answer.
    footer.current?.setAttribute("data-hydrated", "");
  }, []);
  return (
    <footer ref={footer} className="site-footer" data-testid="site-footer">
      <nav aria-label={t("footer.linksLabel")}>
        <ul className="site-footer__links">
          <li>
            <ModalLink section="ingredients" testId="footer-ingredients" label={t("footer.ingredients")} />
          </li>
          <li>
            <TermsLink newTab={behaviour.termsInNewTab} />
          </li>
          <li>
            <ModalLink section="delivery" testId="footer-delivery" label={t("footer.delivery")} />
          </li>
          <li>
            <ModalLink section="privacy" testId="footer-privacy" label={t("footer.privacy")} />
          </li>
          <li>
            <FunnelLink to={routePath("withdraw-2", market.routeValue)} data-testid="footer-withdraw">
              {t("footer.withdraw")}
            </FunnelLink>
          </li>
          {analytics.enabled ? (
            <li>
              <button type="button" className="link-button" data-testid="consent-settings" onClick={analytics.openConsentSettings}>
                {t("consent.settings")}
              </button>
            </li>
          ) : null}
          <li>
            {behaviour.contact === "modal" ? (
              <ModalLink section="contact" testId="footer-contact" label={t("footer.contact")} />
            ) : (
              <a href={config.helpCentreUrl} target="_blank" rel="noopener noreferrer" data-testid="footer-contact">
                {t("footer.contact")} <span className="visually-hidden">{t("footer.newTab")}</span>
              </a>
            )}
          </li>
        </ul>
      </nav>
      <PaymentAndDelivery />
      {behaviour.showContactDetails ? <ContactDetails /> : null}
      <p className="site-footer__note">{t("footer.note")}</p>
      <p className="site-footer__copyright">{t("footer.copyright", { year })}</p>
    </footer>
  );
}
