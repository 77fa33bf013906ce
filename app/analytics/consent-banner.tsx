import { useOpenInfoModal } from "../legal/info-modal-context";
import { useTranslate } from "../market/translate";
import { rememberConsentForServer } from "./consent-cookie";
import type { ConsentChoice } from "./data-layer";

/**
 * The first layer offers Accept and Reject with equal weight and nothing pre-ticked
 * (decision 9). It does not block the page.
 */
export function ConsentBanner({ current, onDecide: decide }: { current: ConsentChoice | null; onDecide: (choice: ConsentChoice) => void }) {
  const t = useTranslate();
  const onDecide = (choice: ConsentChoice) => {
    rememberConsentForServer(choice);
    decide(choice);
  };
  const openModal = useOpenInfoModal();
  return (
    <section className="consent-banner" data-testid="consent-banner" aria-labelledby="consent-title">
      <h2 id="consent-title" className="consent-banner__title">
        {t("consent.title")}
      </h2>
      <p className="consent-banner__text">
        {t("consent.text")}{" "}
        <button type="button" className="link-button" onClick={() => openModal("privacy")}>
          {t("footer.privacy")}
        </button>
      </p>
      {current ? <p className="consent-banner__current">{t(current === "granted" ? "consent.currentAccepted" : "consent.currentRejected")}</p> : null}
      <div className="consent-banner__actions">
        <button type="button" className="button button--consent" data-testid="consent-reject" onClick={() => onDecide("denied")}>
          {t("consent.reject")}
        </button>
        <button type="button" className="button button--consent" data-testid="consent-accept" onClick={() => onDecide("granted")}>
          {t("consent.accept")}
        </button>
      </div>
    </section>
  );
}
