import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { WelcomeCodeClaim } from "../codes/welcome-code-claim";
import { useRouteName } from "../funnel/route-name";
import { StoreImage } from "../image/store-image";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { isLandingRoute } from "./footer-rules";
import { legalSections, legalTextsPath, type LegalTexts, type ModalSection, type OpenModal } from "./legal-texts";

// Fetched once per locale and page life; a failed fetch is not cached, so "Try again" refetches.
const textsCache = new Map<string, Promise<LegalTexts>>();

function fetchLegalTexts(lang: string): Promise<LegalTexts> {
  let request = textsCache.get(lang);
  if (!request) {
    request = fetch(legalTextsPath(lang)).then((response) => {
      if (!response.ok) throw new Error(`Legal texts answered ${response.status}`);
      return response.json() as Promise<LegalTexts>;
    });
    request.catch(() => textsCache.delete(lang));
    textsCache.set(lang, request);
  }
  return request;
}

type TextsState = { status: "loading" } | { status: "failed" } | { status: "ready"; texts: LegalTexts };

function useLegalTexts(lang: string, wanted: boolean): [TextsState, () => void] {
  const [attempt, setAttempt] = useState(0);
  const request = `${lang}#${attempt}`;
  const [result, setResult] = useState<{ request: string; state: TextsState } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let current = true;
    fetchLegalTexts(lang).then(
      (texts) => current && setResult({ request, state: { status: "ready", texts } }),
      () => current && setResult({ request, state: { status: "failed" } }),
    );
    return () => {
      current = false;
    };
  }, [lang, wanted, request]);
  // A result belongs to one request: until the current one answers, the texts are loading.
  const state: TextsState = result?.request === request ? result.state : { status: "loading" };
  return [state, () => setAttempt((n) => n + 1)];
}

function ContactDetailsBlock() {
  const t = useTranslate();
  const { config, market } = useStorefront();
  const routeName = useRouteName();
  // In the GB market the landing routes show the compliant UK address (decision 41).
  const lines = market.country === "GB" && isLandingRoute(routeName) ? config.contact.addressLines2 : config.contact.addressLines;
  return (
    <address className="info-modal__contact">
      {lines.map((line) => (
        <span key={line}>{line}</span>
      ))}
      <span>
        {t("footer.phone")}: <a href={`tel:${config.contact.phone.replace(/\s/g, "")}`}>{config.contact.phone}</a>
      </span>
      <span>
        {t("footer.email")}: <a href={`mailto:${config.contact.email}`}>{config.contact.email}</a>
      </span>
    </address>
  );
}

function SectionBody({ section, texts }: { section: ModalSection; texts: LegalTexts }) {
  const t = useTranslate();
  return (
    <>
      {section === "ingredients" ? (
        <StoreImage className="info-modal__image" src="ingredients.svg" preset="illustration" alt={t("modal.ingredientsImageAlt")} />
      ) : null}
      {texts[section].paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
      {section === "contact" ? <ContactDetailsBlock /> : null}
      {section === "claimOffer" ? <WelcomeCodeClaim /> : null}
    </>
  );
}

const focusable = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab wrap around inside the dialog instead of leaving for the browser's own UI. */
function keepFocusInside(event: KeyboardEvent<HTMLDialogElement>): void {
  if (event.key !== "Tab") return;
  const elements = [...event.currentTarget.querySelectorAll<HTMLElement>(focusable)];
  const first = elements[0];
  const last = elements.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}

export default function InfoModal({ section, onSwitch, onClose }: { section: ModalSection | null; onSwitch: OpenModal; onClose: () => void }) {
  const t = useTranslate();
  const { lang } = useStorefront();
  const dialog = useRef<HTMLDialogElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [texts, retry] = useLegalTexts(lang, section !== null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    // showModal() makes the rest of the page inert, keeps focus inside and closes on Escape.
    if (section !== null && !element.open) element.showModal();
    if (section === null && element.open) element.close();
  }, [section]);

  useEffect(() => {
    if (body.current) body.current.scrollTop = 0;
  }, [section]);

  const title = texts.status === "ready" && section ? texts.texts[section].title : t("modal.loading");
  return (
    <dialog ref={dialog} className="info-modal" aria-labelledby="info-modal-title" onClose={onClose} onKeyDown={keepFocusInside}>
      <div className="info-modal__backdrop" data-testid="modal-backdrop" onClick={onClose} />
      {section ? (
        <div className="info-modal__panel" data-testid="info-modal" data-section={section}>
          <header className="info-modal__header">
            <button type="button" className="info-modal__close" data-testid="modal-close" onClick={onClose} aria-label={t("modal.close")} autoFocus>
              <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
                <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
              </svg>
            </button>
            <h2 id="info-modal-title">{title}</h2>
          </header>
          <div className="info-modal__body" ref={body}>
            {texts.status === "ready" ? <SectionBody section={section} texts={texts.texts} /> : null}
            {texts.status === "failed" ? (
              <p role="alert">
                {t("modal.loadFailed")}{" "}
                <button type="button" className="link-button" onClick={retry}>
                  {t("modal.retry")}
                </button>
              </p>
            ) : null}
            {texts.status === "ready" && (legalSections as readonly string[]).includes(section) ? (
              <nav className="info-modal__sections" aria-label={t("modal.sections")}>
                <ul>
                  {legalSections
                    .filter((other) => other !== section)
                    .map((other) => (
                      <li key={other}>
                        <button type="button" className="link-button" onClick={() => onSwitch(other)}>
                          {texts.texts[other].title}
                        </button>
                      </li>
                    ))}
                </ul>
              </nav>
            ) : null}
          </div>
        </div>
      ) : null}
    </dialog>
  );
}

