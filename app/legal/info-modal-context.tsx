import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import type { ModalSection, OpenModal } from "./legal-texts";

const InfoModalContext = createContext<OpenModal>(() => undefined);

/** Opens the information modal at a section; available anywhere below the root. */
export function useOpenInfoModal(): OpenModal {
  return useContext(InfoModalContext);
}

// The dialog and its texts are loaded the first time a visitor opens it, not with every page.
const InfoModal = lazy(() => import("./info-modal-dialog"));

/** Holds the modal's state (closed, or open at a section) and renders it once for the page. */
export function InfoModalProvider({ children }: { children: ReactNode }) {
  const [section, setSection] = useState<ModalSection | null>(null);
  const [everOpened, setEverOpened] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const open = useCallback<OpenModal>((next) => {
    if (document.activeElement instanceof HTMLElement && !document.activeElement.closest("dialog")) {
      opener.current = document.activeElement;
    }
    setEverOpened(true);
    setSection(next);
  }, []);
  const close = useCallback(() => {
    setSection(null);
    opener.current?.focus();
  }, []);
  const value = useMemo(() => open, [open]);
  return (
    <InfoModalContext.Provider value={value}>
      {children}
      {everOpened ? (
        <Suspense fallback={null}>
          <InfoModal section={section} onSwitch={open} onClose={close} />
        </Suspense>
      ) : null}
    </InfoModalContext.Provider>
  );
}
