import type { ReactNode } from "react";
import { usePageOffer } from "../catalog/page-offer";
import { useTranslate } from "../market/translate";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";
import { TopBanner } from "./top-banner";

export type FrameWidth = "narrow" | "regular" | "wide";

interface PageFrameProps {
  width?: FrameWidth;
  /** Offer layouts show the top banner of the page's offer above the header. */
  offerBanner?: boolean;
  children: ReactNode;
}

/** The banner–header–content–footer frame that the layouts share. */
export function PageFrame({ width = "regular", offerBanner = false, children }: PageFrameProps) {
  const t = useTranslate();
  const offer = usePageOffer();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("common.skipToContent")}
      </a>
      {offerBanner && offer ? <TopBanner offer={offer} /> : null}
      <SiteHeader />
      <main id="main" className={`page page--${width}`} tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
