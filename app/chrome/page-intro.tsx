import type { ReactNode } from "react";
import { useTranslate } from "../market/translate";

/**
 * A page's document title, heading and opening paragraph, read from the `{prefix}.title`,
 * `.heading` and `.intro` messages.
 */
export function PageIntro({ messagePrefix, children }: { messagePrefix: string; children?: ReactNode }) {
  const t = useTranslate();
  return (
    <section className="page-intro">
      <title>{t(`${messagePrefix}.title`)}</title>
      <meta name="description" content={t("meta.description")} />
      <h1>{t(`${messagePrefix}.heading`)}</h1>
      <p className="page-intro__lead">{t(`${messagePrefix}.intro`)}</p>
      {children}
    </section>
  );
}
