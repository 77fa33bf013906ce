import type { ReactNode } from "react";
import { useTranslate } from "../market/translate";
import { DocumentMeta } from "../market/document-meta";

/**
 * A page's document title, heading and opening paragraph, read from the `{prefix}.title`,
 * `.heading` and `.intro` messages.
 */
export function PageIntro({ messagePrefix, children }: { messagePrefix: string; children?: ReactNode }) {
  const t = useTranslate();
  return (
    <section className="page-intro">
      <DocumentMeta title={t(`${messagePrefix}.title`)} />
      <h1>{t(`${messagePrefix}.heading`)}</h1>
      <p className="page-intro__lead">{t(`${messagePrefix}.intro`)}</p>
      {children}
    </section>
  );
}
