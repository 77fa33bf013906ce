import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useRouteName } from "../funnel/route-name";
import { ConsentBanner } from "./consent-banner";
import { readConsent, storeConsent } from "./consent-store";
import { loadTagManager, pushConsentDefaults, pushConsentUpdate, pushContentView, type ConsentChoice } from "./data-layer";

export const storefrontSettingsPath = "/storefront-settings";

interface AnalyticsControls {
  /** Whether a tag manager is configured, so there is something to consent to. */
  enabled: boolean;
  openConsentSettings: () => void;
}

const AnalyticsContext = createContext<AnalyticsControls>({ enabled: false, openConsentSettings: () => undefined });

export function useAnalytics(): AnalyticsControls {
  return useContext(AnalyticsContext);
}

/**
 * The tag manager id is a runtime setting, read after hydration (prerendered pages do not carry
 * it). Without one there is no tag manager, no data layer and no consent banner at all.
 */
function useGtmId(): string | null {
  const [gtmId, setGtmId] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    fetch(storefrontSettingsPath)
      .then((response) => (response.ok ? (response.json() as Promise<{ gtmId: string | null }>) : { gtmId: null }))
      .then((settings) => current && setGtmId(settings.gtmId))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);
  return gtmId;
}

export function AnalyticsProvider({ children }: { children: ReactNode }) {
  const gtmId = useGtmId();
  const [choice, setChoice] = useState<ConsentChoice | null>(null);
  const [bannerOpen, setBannerOpen] = useState(false);
  const { pathname, search } = useLocation();
  const routeName = useRouteName();

  // Consent defaults go first, before any tag; a remembered choice applies at once.
  useEffect(() => {
    if (!gtmId) return;
    pushConsentDefaults();
    const remembered = readConsent();
    setChoice(remembered);
    setBannerOpen(remembered === null);
    if (remembered) pushConsentUpdate(remembered);
    if (remembered === "granted") loadTagManager(gtmId);
  }, [gtmId]);

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
      {gtmId && bannerOpen ? <ConsentBanner current={choice} onDecide={decide} /> : null}
    </AnalyticsContext.Provider>
  );
}
