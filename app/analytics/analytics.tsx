import { createContext, lazy, Suspense, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useLocation } from "react-router";
import { useRouteName } from "../funnel/route-name";
import { afterPageLoad } from "../platform/idle";
import { fetchRuntimeSettings } from "../platform/runtime-settings";
import type { ConsentChoice, PurchaseReport } from "./data-layer";
import type * as TagManagerModule from "./tag-manager";

type TagManager = typeof TagManagerModule;

interface AnalyticsControls {
  /** Whether a tag manager is configured, so there is something to consent to. */
  enabled: boolean;
  openConsentSettings: () => void;
  /** Puts the page's purchase in the data layer once the tag manager's code is there. */
  reportPurchase: (purchase: PurchaseReport) => void;
}

// Only visitors who have not chosen yet (or open the settings) need the banner's code.
const ConsentBanner = lazy(() => import("./consent-banner").then((module) => ({ default: module.ConsentBanner })));

const AnalyticsContext = createContext<AnalyticsControls>({ enabled: false, openConsentSettings: () => undefined, reportPurchase: () => undefined });

export function useAnalytics(): AnalyticsControls {
  return useContext(AnalyticsContext);
}

/**
 * The tag manager id is a runtime setting, read once the page has loaded (prerendered pages do
 * not carry it). Without one there is no tag manager, no data layer and no consent banner at all;
 * with one, the consent and data-layer code is loaded then, not with the page.
 */
export function AnalyticsProvider({ children }: { children: ReactNode }) {
  const [tagManager, setTagManager] = useState<{ id: string; tags: TagManager } | null>(null);
  const gtmId = tagManager?.id ?? null;
  const [choice, setChoice] = useState<ConsentChoice | null>(null);
  const [bannerOpen, setBannerOpen] = useState(false);
  const [purchase, setPurchase] = useState<PurchaseReport | null>(null);
  const { pathname, search } = useLocation();
  const routeName = useRouteName();

  useEffect(() => {
    let current = true;
    const cancel = afterPageLoad(() => {
      fetchRuntimeSettings()
        .then(async ({ gtmId: id }) => {
          if (!current || !id) return;
          const tags = await import("./tag-manager");
          if (!current) return;
          // Consent defaults go first, before any tag; a remembered choice applies at once.
          tags.pushConsentDefaults();
          const remembered = tags.readConsent();
          if (remembered) tags.pushConsentUpdate(remembered);
          if (remembered === "granted") tags.loadTagManager(id);
          setChoice(remembered);
          setBannerOpen(remembered === null);
          setTagManager({ id, tags });
        })
        .catch(() => undefined);
    });
    return () => {
      current = false;
      cancel();
    };
  }, []);

  useEffect(() => {
    tagManager?.tags.pushContentView(pathname, search, routeName);
  }, [tagManager, pathname, search, routeName]);

  // After the page view it belongs to; waits in the data layer for consent like the page views.
  useEffect(() => {
    if (purchase) tagManager?.tags.pushPurchase(purchase);
  }, [tagManager, purchase]);

  const reportPurchase = useCallback((next: PurchaseReport) => setPurchase((current) => (current?.orderNumber === next.orderNumber ? current : next)), []);

  const decide = useCallback(
    (next: ConsentChoice) => {
      if (!tagManager) return;
      const { id, tags } = tagManager;
      tags.storeConsent(next);
      setChoice(next);
      setBannerOpen(false);
      tags.pushConsentUpdate(next);
      if (next === "granted") tags.loadTagManager(id);
    },
    [tagManager],
  );

  const controls = useMemo(() => ({ enabled: gtmId !== null, openConsentSettings: () => setBannerOpen(true), reportPurchase }), [gtmId, reportPurchase]);
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
