import type { LegalText } from "./legal-texts";

/** One legal text (terms, refund conditions) as a titled section of a page. */
export function LegalTextSection({ text, id }: { text: LegalText | undefined; id: string }) {
  if (!text) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{text.title}</h2>
      {text.paragraphs.map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </section>
  );
}
