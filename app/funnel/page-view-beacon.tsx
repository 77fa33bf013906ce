import { useEffect } from "react";
import { useLocation } from "react-router";
import { funnelStepOf } from "./funnel-steps";

/** Where the browser reports a view of a funnel page (`app/routes/funnel-view.ts`). */
const pageViewPath = "/funnel-view";

/** The checkout keeps this much of `src` on the order; views keep the same, so the two compare. */
export const srcLength = 40;

/** The host of the page that linked here when it is another site's (it stays the same across client-side navigations). */
function externalReferrerHost(): string | null {
  try {
    const host = document.referrer ? new URL(document.referrer).host : "";
    return host && host !== window.location.host ? host : null;
  } catch {
    return null;
  }
}

/** The path this document was first loaded at: where the visit landed, before any client-side navigation. */
function landingPath(): string {
  const [entry] = performance.getEntriesByType("navigation");
  try {
    return entry ? new URL(entry.name).pathname : window.location.pathname;
  } catch {
    return window.location.pathname;
  }
}

/**
 * Counts one view of a funnel page: after hydration, and after each client-side navigation to
 * another path. It sends the step, the market, the funnel variant, the referring site's host and the path
 * the visit landed on, nothing else: no cookie, no identifier, no address (docs/decisions/0017-funnel-counting.md), so it needs no consent and does
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
      // The site that linked to the visit is part of its touch (decision 45); the host only.
      const referrer = externalReferrerHost();
      if (referrer) body.set("ref", referrer);
      body.set("land", landingPath());
      if (!navigator.sendBeacon?.(pageViewPath, body)) fetch(pageViewPath, { method: "POST", body, keepalive: true }).catch(() => undefined);
    };
    if ((document as { prerendering?: boolean }).prerendering) document.addEventListener("prerenderingchange", send, { once: true });
    else send();
  }, [pathname, routeName, market]);
  return null;
}
