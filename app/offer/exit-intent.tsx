import { useEffect, useRef, useState } from "react";
import { useOpenInfoModal } from "../legal/info-modal-context";

export interface ExitIntentTexts {
  title: string;
  text: string;
  accept: string;
  decline: string;
}

const shownKey = "vitanor:exit-intent-shown";

/**
 * On /offerexitpop: when the pointer leaves through the top of the window (about to close the tab
 * or leave), offer the welcome code once per session. Accept opens the claim section, which issues
 * the visitor's own code; decline just closes, with no shaming.
 */
export function ExitIntent({ texts }: { texts: ExitIntentTexts }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  const openModal = useOpenInfoModal();

  useEffect(() => {
    const onLeave = (event: MouseEvent) => {
      if (event.relatedTarget !== null || event.clientY > 0) return;
      try {
        if (sessionStorage.getItem(shownKey)) return;
        sessionStorage.setItem(shownKey, "1");
      } catch {
        // Without storage it may show again on the next page view.
      }
      setOpen(true);
    };
    document.addEventListener("mouseout", onLeave);
    return () => document.removeEventListener("mouseout", onLeave);
  }, []);

  useEffect(() => {
    if (open && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [open]);

  const close = () => {
    dialog.current?.close();
    setOpen(false);
  };
  if (!open) return null;
  return (
    <dialog ref={dialog} className="exit-intent" aria-labelledby="exit-intent-title" data-testid="exit-intent" onClose={() => setOpen(false)}>
      <h2 id="exit-intent-title">{texts.title}</h2>
      <p>{texts.text}</p>
      <div className="exit-intent__actions">
        <button type="button" className="button button--secondary" onClick={close}>
          {texts.decline}
        </button>
        <button
          type="button"
          className="button button--primary"
          autoFocus
          onClick={() => {
            close();
            openModal("claimOffer");
          }}
        >
          {texts.accept}
        </button>
      </div>
    </dialog>
  );
}
