import type { StoredCode } from "../../codes/codes.server";
import { codeCountries, codeCurrencies, maxPercent, type CodeDraft, type CodeFormErrors } from "../../codes/code-form";
import type { CodeFigures, CodeList, CodeMoney } from "../../orders/code-figures.server";
import type { CurrencyCode } from "../../market/markets";
import type { Operator } from "../../operators/audit.server";
import { may } from "../operators.server";
import { formatMinor, Frame, type Notice } from "./frame";

export type CodeStatus = "active" | "deactivated" | "expired";

export function statusOf(code: Pick<StoredCode, "active" | "validUntil">, now: Date): CodeStatus {
  if (!code.active) return "deactivated";
  return code.validUntil && now >= code.validUntil ? "expired" : "active";
}

const day = (date: Date) => date.toISOString().slice(0, 10);
/** A code's stored end is the midnight after its last day. */
const lastDay = (validUntil: Date) => day(new Date(validUntil.getTime() - 1));

/** Amounts per currency in the order the form lists the currencies. */
const perCurrency = (amounts: Partial<Record<CurrencyCode, number>>) =>
  codeCurrencies.flatMap((currency) => {
    const minor = amounts[currency];
    return minor === undefined ? [] : [formatMinor(minor, currency)];
  });

/** A code's terms in one line each, as an operator reads them. */
export function termsText(code: StoredCode): string[] {
  const reduction = code.reduction;
  const off = reduction.kind === "percent" ? `${reduction.percent} % off` : `${perCurrency(reduction.amountMinor).join(", ")} off (other currencies do not take it)`;
  const minimums = perCurrency(code.minimumMinor);
  const validity = [code.validFrom ? `from ${day(code.validFrom)}` : null, code.validUntil ? `to ${lastDay(code.validUntil)} included` : null].filter(Boolean).join(" ");
  return [
    off,
    minimums.length > 0 ? `Minimum order ${minimums.join(", ")}` : null,
    code.countries.length > 0 ? `Markets ${code.countries.join(", ")}` : "Every market",
    validity ? `Valid ${validity} (UTC)` : null,
    code.maxRedemptions === null ? "No total limit" : `At most ${code.maxRedemptions} redemptions`,
    code.oncePerCustomer ? "Once per customer" : null,
    code.firstOrderOnly ? "First order only" : null,
  ].filter((line): line is string => line !== null);
}

function MoneyCells({ money }: { money: CodeMoney[] }) {
  if (money.length === 0)
    return (
      <>
        <td className="num">—</td>
        <td className="num">—</td>
      </>
    );
  return (
    <>
      <td className="num">
        {money.map((entry) => (
          <div key={entry.currency}>{formatMinor(entry.discountMinor, entry.currency)}</div>
        ))}
      </td>
      <td className="num">
        {money.map((entry) => (
          <div key={entry.currency}>{formatMinor(entry.netRevenueMinor, entry.currency)}</div>
        ))}
      </td>
    </>
  );
}

function RedemptionCell({ figures, max }: { figures: CodeFigures; max: number | null }) {
  return (
    <td className="num">
      {figures.kept}
      {max === null ? "" : ` of ${max}`}
      {figures.reserved > 0 ? <div className="muted">{`+ ${figures.reserved} reserved by unpaid orders`}</div> : null}
    </td>
  );
}

function FieldError({ errors, name }: { errors: CodeFormErrors; name: string }) {
  const error = errors[name];
  return error ? (
    <span className="field-error" id={`${name}-error`} data-testid={`code-error-${name}`}>
      {error}
    </span>
  ) : null;
}

/** Marks a field refused, pointing at its reason. */
const invalid = (errors: CodeFormErrors, name: string) => (errors[name] ? { "aria-invalid": true as const, "aria-describedby": `${name}-error` } : {});

function CodeForm({ draft, errors }: { draft: CodeDraft; errors: CodeFormErrors }) {
  return (
    <section className="panel" aria-labelledby="new-code">
      <h2 id="new-code">New code</h2>
      {Object.keys(errors).length > 0 ? (
        <p className="notice error" role="alert" data-testid="code-errors">
          Nothing was saved: see the reasons by the fields.
        </p>
      ) : null}
      <form method="post" action="/admin/codes" className="stack">
        <div className="actions">
          <label>
            Code (letters and digits; case does not matter)
            <input type="text" name="code" required maxLength={40} defaultValue={draft.code} size={20} autoComplete="off" {...invalid(errors, "code")} />
            <FieldError errors={errors} name="code" />
          </label>
        </div>
        <fieldset>
          <legend>Reduction</legend>
          <FieldError errors={errors} name="kind" />
          <div className="actions">
            <label className="inline">
              <input type="radio" name="kind" value="percent" defaultChecked={draft.kind !== "amount"} /> Percent off
            </label>
            <label>
              Percent (1 to {maxPercent})
              <input type="number" name="percent" min={1} max={maxPercent} step={1} defaultValue={draft.percent} {...invalid(errors, "percent")} />
              <FieldError errors={errors} name="percent" />
            </label>
          </div>
          <div className="actions">
            <label className="inline">
              <input type="radio" name="kind" value="amount" defaultChecked={draft.kind === "amount"} /> Amount off, per currency (a currency left empty does not take the code)
            </label>
          </div>
          <FieldError errors={errors} name="amount" />
          <div className="actions">
            {codeCurrencies.map((currency) => (
              <label key={currency}>
                {currency}
                <input type="text" name={`amount_${currency}`} inputMode="decimal" size={8} defaultValue={draft.amounts[currency] ?? ""} {...invalid(errors, `amount_${currency}`)} />
                <FieldError errors={errors} name={`amount_${currency}`} />
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Minimum order per currency, before the code (empty: none)</legend>
          <div className="actions">
            {codeCurrencies.map((currency) => (
              <label key={currency}>
                {currency}
                <input type="text" name={`minimum_${currency}`} inputMode="decimal" size={8} defaultValue={draft.minimums[currency] ?? ""} {...invalid(errors, `minimum_${currency}`)} />
                <FieldError errors={errors} name={`minimum_${currency}`} />
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Markets (none ticked: every market)</legend>
          <FieldError errors={errors} name="country" />
          <div className="actions">
            {codeCountries.map((country) => (
              <label className="inline" key={country}>
                <input type="checkbox" name="country" value={country} defaultChecked={draft.countries.includes(country)} /> {country}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="actions">
          <label>
            First day (empty: from now)
            <input type="date" name="validFrom" defaultValue={draft.validFrom} {...invalid(errors, "validFrom")} />
            <FieldError errors={errors} name="validFrom" />
          </label>
          <label>
            Last day, included until midnight UTC (empty: no end)
            <input type="date" name="validUntil" defaultValue={draft.validUntil} {...invalid(errors, "validUntil")} />
            <FieldError errors={errors} name="validUntil" />
          </label>
          <label>
            Total redemptions (empty: no limit)
            <input type="number" name="maxRedemptions" min={1} step={1} defaultValue={draft.maxRedemptions} {...invalid(errors, "maxRedemptions")} />
            <FieldError errors={errors} name="maxRedemptions" />
          </label>
        </div>
        <div className="actions">
          <label className="inline">
            <input type="checkbox" name="oncePerCustomer" value="yes" defaultChecked={draft.oncePerCustomer} /> Once per customer (by e-mail address)
          </label>
          <label className="inline">
            <input type="checkbox" name="firstOrderOnly" value="yes" defaultChecked={draft.firstOrderOnly} /> First order only (no earlier paid order with that e-mail address)
          </label>
        </div>
        <div className="actions">
          <button type="submit" data-testid="code-create">
            Create the code
          </button>
        </div>
      </form>
    </section>
  );
}

export interface CodesViewProps {
  operator: Operator;
  list: CodeList;
  now: Date;
  includeTest: boolean;
  draft: CodeDraft;
  errors: CodeFormErrors;
  notice?: Notice | null;
}

export function CodesView({ operator, list, now, includeTest, draft, errors, notice }: CodesViewProps) {
  const manages = may(operator, "manage_codes");
  return (
    <Frame operator={operator} section="codes" title="Discount codes" notice={notice}>
      <section className="panel" aria-labelledby="code-list">
        <h2 id="code-list">Codes ({list.codes.length})</h2>
        <p className="muted">
          Redemptions: orders paid with the code (reserved: placed and not yet paid). Discount given and net revenue (the orders&apos; totals, upsells included, minus refunds) count
          paid orders, per currency.{includeTest ? " Test orders included." : " Test orders left out."}
        </p>
        <table data-testid="code-table">
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Terms</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Redemptions
              </th>
              <th scope="col" className="num">
                Discount given
              </th>
              <th scope="col" className="num">
                Net revenue
              </th>
              {manages ? <th scope="col">Change</th> : null}
            </tr>
          </thead>
          <tbody>
            {list.codes.map(({ code, figures }) => {
              const status = statusOf(code, now);
              return (
                <tr key={code.id} data-testid="code-row" data-code={code.code}>
                  <th scope="row">
                    <code>{code.code}</code>
                  </th>
                  <td>
                    {termsText(code).map((line) => (
                      <div key={line}>{line}</div>
                    ))}
                  </td>
                  <td>
                    <span className="status" data-testid="code-status">
                      {status}
                    </span>
                  </td>
                  <RedemptionCell figures={figures} max={code.maxRedemptions} />
                  <MoneyCells money={figures.money} />
                  {manages ? (
                    <td>
                      <form method="post" action={`/admin/codes/${code.code}/${code.active ? "deactivate" : "reactivate"}`}>
                        <button type="submit" className="secondary" data-testid={code.active ? "code-deactivate" : "code-reactivate"}>
                          {code.active ? "Deactivate" : "Reactivate"}
                        </button>
                      </form>
                    </td>
                  ) : null}
                </tr>
              );
            })}
            <tr data-testid="welcome-codes">
              <th scope="row">Welcome codes</th>
              <td>
                <div>{`${list.welcome.issued} issued, one per visitor who opened the offer's welcome section`}</div>
              </td>
              <td />
              <RedemptionCell figures={list.welcome} max={null} />
              <MoneyCells money={list.welcome.money} />
              {manages ? <td /> : null}
            </tr>
          </tbody>
        </table>
      </section>
      {manages ? <CodeForm draft={draft} errors={errors} /> : <p className="muted">Only an owner creates and deactivates codes.</p>}
    </Frame>
  );
}
