import { useEffect } from "react";
import { useLocation } from "react-router";
import { funnelStepOf } from "./funnel-steps";

/** Where the browser reports a view of a funnel page (`app/routes/funnel-view.ts`). */
const pageViewPath = "/funnel-view";

/** The checkout keeps this much of `src` on the order; views keep the same, so the two compare. */
export const srcLength = 40;

/**
 * Counts one view of a funnel page: after hydration, and after each client-side navigation to
 * another path. It sends the step, the market and the funnel variant, nothing else: no cookie, no
 * identifier, no address (docs/decisions/0017-funnel-counting.md), so it needs no consent and does
 * not go through the analytics module. Prefetches never render, so they never get here; a page
 * the browser prerenders counts only once the visitor actually opens it.
 */
export function PageViewBeacon({ routeName, market }: { routeName: string; market: string }) {
  const { pathname } = useLocation();
  useEffect(() => {
    const step = funnelStepOf(routeName);
    if (!step) return;
    const send = () => {
      const src = new URLSearchParams(window.location.search).get("src") ?? "";
      const body = new URLSearchParams({ step, market, src: src.slice(0, srcLength) });
      if (!navigator.sendBeacon?.(pageViewPath, body)) fetch(pageViewPath, { method: "POST", body, keepalive: true }).catch(() => undefined);
    };
    if ((document as { prerendering?: boolean }).prerendering) document.addEventListener("prerenderingchange", send, { once: true });
    else send();
  }, [pathname, routeName, market]);
  return null;
}
