import type { Operator } from "../../operators/audit.server";
import { may } from "../operators.server";
import { Frame, type Notice } from "./frame";

/** Access (GDPR Art. 15) and erasure (Art. 17) requests, by the e-mail address the customer wrote from. */
export function PrivacyView({ operator, email, notice }: { operator: Operator; email: string; notice?: Notice | null }) {
  return (
    <Frame operator={operator} section="privacy" title="Privacy requests" notice={notice}>
      <div className="grid">
        <section className="panel" aria-labelledby="export">
          <h2 id="export">Export a customer's data</h2>
          <p>Everything stored about an e-mail address (orders, payments, refunds, reviews, requests, feedback and e-mails sent), as a JSON file to send to the customer.</p>
          <form method="post" action="/admin/privacy/export" className="actions">
            <label>
              E-mail address
              <input type="email" name="email" required maxLength={254} defaultValue={email} autoComplete="off" />
            </label>
            <button type="submit">Export</button>
          </form>
        </section>
        <section className="panel" aria-labelledby="erase">
          <h2 id="erase">Erase a customer's data</h2>
          <p>
            Names, addresses, phone numbers, e-mail addresses and messages are anonymised everywhere; order numbers, amounts and VAT stay for the accounts. The orders' reviews are
            deleted and e-mails still waiting to be sent to the address are cancelled. This cannot be undone. The payment providers keep their own records.
          </p>
          {may(operator, "erase") ? (
            <form method="post" action="/admin/privacy/erase">
              <div className="actions">
                <label>
                  E-mail address
                  <input type="email" name="email" required maxLength={254} defaultValue={email} autoComplete="off" />
                </label>
                <label>
                  The same address again
                  <input type="email" name="confirmEmail" required maxLength={254} autoComplete="off" />
                </label>
              </div>
              <p>
                <label className="inline">
                  <input type="checkbox" name="verified" value="yes" required /> I have checked that the request comes from the person this address belongs to.
                </label>
              </p>
              <button type="submit" className="danger">
                Erase
              </button>
            </form>
          ) : (
            <p className="muted">Only an owner may erase a customer's data.</p>
          )}
        </section>
      </div>
    </Frame>
  );
}
