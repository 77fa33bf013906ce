import type { LegalText } from "./legal-texts";

/**
 * One legal text (terms, refund conditions) as a section of a page, titled by an h2 unless the
 * page's own heading already names it (`headingId` is then left out).
 */
export function LegalTextSection({ text, headingId }: { text: LegalText | undefined; headingId?: string }) {
  if (!text) return null;
  return (
    <section aria-labelledby={headingId}>
      {headingId ? <h2 id={headingId}>{text.title}</h2> : null}
      {text.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </section>
  );
}
