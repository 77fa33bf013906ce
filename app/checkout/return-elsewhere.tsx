import { DocumentMeta } from "../market/document-meta";
import type { ReturnElsewhere } from "./checkout.server";

/**
 * The page of a buyer whom a bank or wallet app brought back in another browser: the payment's
 * state, and where the confirmation is. Nothing of the order is shown; the buyer's own browser
 * still holds it.
 */
export function ReturnElsewherePage({ state, texts }: Pick<ReturnElsewhere, "state" | "texts">) {
  const confirmed = state === "paid" || state === "processing";
  return (
    <section className="page-intro" data-testid="return-elsewhere" data-state={state}>
      <DocumentMeta title={texts.title} />
      <h1>{texts.title}</h1>
      <p className="page-intro__lead">{texts[state]}</p>
      {confirmed ? <p>{texts.email}</p> : null}
    </section>
  );
}
