import { Suspense, type ReactNode } from "react";
import { useTranslate } from "../market/translate";
import { deferredComponent } from "../platform/deferred-component";
import { SiteHeader } from "./site-header";

// Below the fold on every page: the footer's code (with the payment and flag images it shows)
// loads next to hydration instead of before it; its server HTML stays in place meanwhile.
const SiteFooter = deferredComponent(() => import("./site-footer").then((module) => module.SiteFooter));

export type FrameWidth = "narrow" | "regular" | "wide";

interface PageFrameProps {
  width?: FrameWidth;
  /** Shown above the header: the offer layouts' top banner (`OfferBanner`). */
  banner?: ReactNode;
  children: ReactNode;
}

/** The banner–header–content–footer frame that the layouts share. */
export function PageFrame({ width = "regular", banner, children }: PageFrameProps) {
  const t = useTranslate();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("common.skipToContent")}
      </a>
      {banner}
      <SiteHeader />
      <main id="main" className={`page page--${width}`} tabIndex={-1}>
        {children}
      </main>
      <Suspense fallback={null}>
        <SiteFooter />
      </Suspense>
    </>
  );
}
