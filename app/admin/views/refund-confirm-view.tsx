import type { Operator } from "../../operators/audit.server";
import { Frame, formatMinor, type SectionId } from "./frame";

export interface RefundConfirmation {
  orderNumber: string;
  currency: string;
  amountMinor: number;
  /** The lines the refund gives back, named as the order names them. */
  lineNames: string[];
  /** Where the form goes, and the fields it carries again with the operator's yes. */
  action: string;
  fields: Record<string, string | readonly string[]>;
  /** Back to where the operator came from, refunding nothing. */
  cancelHref: string;
}

/**
 * The step between an operator's click and the provider: a refund sends money, so it is done only
 * once the operator has seen the amount and said yes to it.
 */
export function RefundConfirmView({ operator, section, confirmation }: { operator: Operator; section: SectionId; confirmation: RefundConfirmation }) {
  const amount = formatMinor(confirmation.amountMinor, confirmation.currency);
  return (
    <Frame operator={operator} section={section} title={`Refund ${amount} on order ${confirmation.orderNumber}?`}>
      <section className="panel" aria-labelledby="refund-confirm" data-testid="admin-refund-confirmation">
        <h2 id="refund-confirm">Nothing has been refunded yet</h2>
        <p>
          Confirming sends <strong>{amount}</strong> back to the buyer through the payment provider that took it, for:
        </p>
        <ul>
          {confirmation.lineNames.map((name, index) => (
            <li key={index}>{name}</li>
          ))}
        </ul>
        <form method="post" action={confirmation.action} className="actions">
          {Object.entries(confirmation.fields).flatMap(([name, value]) =>
            (typeof value === "string" ? [value] : value).map((one) => <input key={`${name}:${one}`} type="hidden" name={name} value={one} />),
          )}
          <input type="hidden" name="confirmedMinor" value={confirmation.amountMinor} />
          <button type="submit" name="confirm" value="yes" className="danger" data-testid="admin-refund-confirm">
            Refund {amount}
          </button>
          <a href={confirmation.cancelHref}>Cancel, refund nothing</a>
        </form>
      </section>
    </Frame>
  );
}
