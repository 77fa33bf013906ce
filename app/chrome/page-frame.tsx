import type { ReactNode } from "react";
import { useTranslate } from "../market/translate";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

export type FrameWidth = "narrow" | "regular" | "wide";

/** The header–content–footer frame that the layouts share; each layout sets its own width. */
export function PageFrame({ width = "regular", children }: { width?: FrameWidth; children: ReactNode }) {
  const t = useTranslate();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("common.skipToContent")}
      </a>
      <SiteHeader />
      <main id="main" className={`page page--${width}`} tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
