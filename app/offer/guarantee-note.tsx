/**
 * The 60-day guarantee and withdrawal right, as offer, landing and thank-you pages state them. A
 * file of its own: the thank-you page shows it without loading the offer's sections.
 */
export function GuaranteeNote({ title, text }: { title: string; text: string }) {
  return (
    <section aria-labelledby="guarantee-title" className="offer-sections__guarantee">
      <h2 id="guarantee-title">{title}</h2>
      <p>{text}</p>
    </section>
  );
}
