import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useRouteName } from "../funnel/route-name";
import { afterPageLoad } from "../platform/idle";
import { fetchRuntimeSettings } from "../platform/runtime-settings";
import { readConsent, storeConsent } from "./consent-store";
import { loadTagManager, pushConsentDefaults, pushConsentUpdate, pushContentView, type ConsentChoice } from "./data-layer";

interface AnalyticsControls {
  /** Whether a tag manager is configured, so there is something to consent to. */
  enabled: boolean;
  openConsentSettings: () => void;
}

// Only visitors who have not chosen yet (or open the settings) need the banner's code.
const ConsentBanner = lazy(() => import("./consent-banner").then((module) => ({ default: module.ConsentBanner })));

const AnalyticsContext = createContext<AnalyticsControls>({ enabled: false, openConsentSettings: () => undefined });

export function useAnalytics(): AnalyticsControls {
  return useContext(AnalyticsContext);
}

/**
 * The tag manager id is a runtime setting, read once the page has loaded (prerendered pages do
 * not carry it). Without one there is no tag manager, no data layer and no consent banner at all.
 */
export function AnalyticsProvider({ children }: { children: ReactNode }) {
  const [gtmId, setGtmId] = useState<string | null>(null);
  const [choice, setChoice] = useState<ConsentChoice | null>(null);
  const [bannerOpen, setBannerOpen] = useState(false);
  const { pathname, search } = useLocation();
  const routeName = useRouteName();

  useEffect(() => {
    let current = true;
    const cancel = afterPageLoad(() => {
      fetchRuntimeSettings()
        .then(({ gtmId: id }) => {
          if (!current || !id) return;
          // Consent defaults go first, before any tag; a remembered choice applies at once.
          pushConsentDefaults();
          const remembered = readConsent();
          if (remembered) pushConsentUpdate(remembered);
          if (remembered === "granted") loadTagManager(id);
          setChoice(remembered);
          setBannerOpen(remembered === null);
          setGtmId(id);
        })
        .catch(() => undefined);
    });
    return () => {
      current = false;
      cancel();
    };
  }, []);

  useEffect(() => {
    if (gtmId) pushContentView(pathname, search, routeName);
  }, [gtmId, pathname, search, routeName]);

  const decide = useCallback(
    (next: ConsentChoice) => {
      storeConsent(next);
      setChoice(next);
      setBannerOpen(false);
      pushConsentUpdate(next);
      if (next === "granted" && gtmId) loadTagManager(gtmId);
    },
    [gtmId],
  );

  const controls = useMemo(() => ({ enabled: gtmId !== null, openConsentSettings: () => setBannerOpen(true) }), [gtmId]);
  return (
    <AnalyticsContext.Provider value={controls}>
      {children}
      {gtmId && bannerOpen ? (
        <Suspense fallback={null}>
          <ConsentBanner current={choice} onDecide={decide} />
        </Suspense>
      ) : null}
    </AnalyticsContext.Provider>
  );
}
