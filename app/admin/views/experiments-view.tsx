import type { Experiment } from "../../experiments/experiments.server";
import { maxArms } from "../../experiments/experiment-model";
import type { ArmFigures, ExperimentReport } from "../../experiments/report.server";
import { srmAlertBelow } from "../../experiments/statistics.server";
import type { Interval } from "../../experiments/statistics.server";
import type { Operator } from "../../operators/audit.server";
import type { PrimaryMetric } from "../../experiments/schema";
import { may } from "../operators.server";
import { formatMinor, formatTime, Frame, MarketSelect, type Notice } from "./frame";

/** What the operator typed, shown again with the refusals. */
export interface ExperimentDraft {
  name: string;
  entry: string;
  arms: { path: string; weight: string }[];
  market: string;
  hypothesis: string;
  primaryMetric: string;
}

/** Per market, what each arm's page sells: an offer page its lines, a quiz what the answers lead to, other pages nothing. */
export type ArmOffers = { market: string; arms: { market: string; sells: "offer" | "quiz" | "nothing"; lines: { units: number; productName: string; priceMinor: number; currency: string }[] }[] }[];

const metricLabels: Record<PrimaryMetric, string> = { conversion: "Conversion", revenue: "Revenue per visitor" };

/** The family of comparisons the verdict is corrected for: one per arm, or per arm and currency for revenue. */
export function verdictBasis(metric: PrimaryMetric, comparisons: number): string {
  const label = metricLabels[metric].toLowerCase();
  return metric === "conversion"
    ? `given on ${label} alone, with Holm-Bonferroni across the ${comparisons} arms compared with the control`
    : `given on ${label} alone, with Holm-Bonferroni across its ${comparisons} comparisons with the control, one per arm and currency`;
}

export const emptyDraft: ExperimentDraft = {
  name: "",
  entry: "/offer",
  arms: [
    { path: "/offer", weight: "50" },
    { path: "/offer2", weight: "50" },
  ],
  market: "",
  hypothesis: "",
  primaryMetric: "",
};

const statusLabels: Record<Experiment["status"], string> = { draft: "Draft", running: "Running", stopped: "Stopped", shipped: "Shipped" };

function armsText(experiment: Experiment): string {
  return experiment.arms.map((arm, index) => `${arm.path} ${arm.weight}%${index === 0 ? " (control)" : ""}`).join(", ");
}

function ExperimentForm({ draft, errors }: { draft: ExperimentDraft; errors: string[] }) {
  const rows = Array.from({ length: maxArms }, (_, index) => draft.arms[index] ?? { path: "", weight: "" });
  return (
    <section className="panel" aria-labelledby="new-experiment">
      <h2 id="new-experiment">New split test</h2>
      {errors.length > 0 ? (
        <div className="notice error" role="alert" data-testid="experiment-errors">
          <p>Nothing was saved:</p>
          <ul>
            {errors.map((error) => (
              <li key={error} data-testid="experiment-error">
                {error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <form method="post" action="/admin/experiments" className="stack">
        <div className="actions">
          <label>
            Name
            <input type="text" name="name" required maxLength={80} defaultValue={draft.name} size={32} />
          </label>
          <label>
            Entry path (the address the ads link to)
            <input type="text" name="entry" required defaultValue={draft.entry} size={16} pattern="/[A-Za-z0-9\-]*" />
          </label>
          <MarketSelect value={draft.market} noneLabel="Every market" />
        </div>
        <fieldset>
          <legend>Arms: paths of the funnel and their share of visitors in percent (2 to 4; the first is the control)</legend>
          {rows.map((arm, index) => (
            <div className="actions" key={index}>
              <label>
                {index === 0 ? "Control path" : `Arm ${index + 1} path`}
                <input type="text" name="armPath" defaultValue={arm.path} size={16} required={index < 2} />
              </label>
              <label>
                Weight (%)
                <input type="number" name="armWeight" min={1} max={99} step={1} defaultValue={arm.weight} required={index < 2} />
              </label>
            </div>
          ))}
        </fieldset>
        <label>
          Primary metric: the one the verdict is given on (every other metric shows its interval and no verdict)
          <select name="primaryMetric" defaultValue={draft.primaryMetric || "conversion"} required>
            {(Object.keys(metricLabels) as PrimaryMetric[]).map((metric) => (
              <option key={metric} value={metric}>
                {metricLabels[metric]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Hypothesis
          <textarea name="hypothesis" maxLength={1000} defaultValue={draft.hypothesis} />
        </label>
        <p className="muted">
          The weights are fixed once the test starts, so nobody already in an arm is moved to another; to change them, stop this test and start a new one. Every arm must show a visitor the same
          market, so the same prices, as the entry does (special-offer paths show France).
        </p>
        <div className="actions">
          <button type="submit" name="intent" value="start" data-testid="experiment-start">
            Create and start
          </button>
          <button type="submit" name="intent" value="draft" className="secondary">
            Save as draft
          </button>
        </div>
      </form>
    </section>
  );
}

export function ExperimentsView({ operator, experiments, draft, errors, notice }: { operator: Operator; experiments: Experiment[]; draft: ExperimentDraft; errors: string[]; notice?: Notice | null }) {
  return (
    <Frame operator={operator} section="experiments" title="Split tests" notice={notice}>
      <section className="panel" aria-labelledby="experiment-list">
        <h2 id="experiment-list">Tests ({experiments.length})</h2>
        {experiments.length === 0 ? (
          <p className="muted">None yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Entry</th>
                <th scope="col">Arms</th>
                <th scope="col">Market</th>
                <th scope="col">Status</th>
                <th scope="col">Started</th>
              </tr>
            </thead>
            <tbody>
              {experiments.map((experiment) => (
                <tr key={experiment.key} data-testid="experiment-row">
                  <td>
                    <a href={`/admin/experiments/${experiment.key}`}>{experiment.name}</a>
                  </td>
                  <td>{experiment.entryPath}</td>
                  <td>{armsText(experiment)}</td>
                  <td>{experiment.market ?? "All"}</td>
                  <td>
                    <span className="status">{statusLabels[experiment.status]}</span>
                  </td>
                  <td className="nowrap">{formatTime(experiment.startedAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {may(operator, "run_experiments") ? <ExperimentForm draft={draft} errors={errors} /> : <p className="muted">Only an owner starts, stops and ships split tests.</p>}
    </Frame>
  );
}

const percent = (value: number | null, digits = 2) => (value === null ? "—" : `${(value * 100).toFixed(digits)}%`);
const signed = (value: number, format: (value: number) => string) => `${value > 0 ? "+" : value < 0 ? "−" : "±"}${format(Math.abs(value))}`;

function IntervalText({ interval, format }: { interval: Interval | null; format: (value: number) => string }) {
  if (!interval) return <span className="muted">not enough data</span>;
  return (
    <>
      {signed(interval.difference, format)}
      <br />
      <span className="report-note">
        {signed(interval.lower, format)} to {signed(interval.upper, format)}
      </span>
    </>
  );
}

const points = (value: number) => `${(value * 100).toFixed(2)} pp`;
const relative = (value: number) => `${(value * 100).toFixed(1)}%`;

/** The absolute difference and, beneath it, the relative lift, each with its interval. */
function DifferenceCell({ difference, lift, format }: { difference: Interval | null; lift?: Interval | null; format: (value: number) => string }) {
  return (
    <>
      <IntervalText interval={difference} format={format} />
      {lift ? (
        <>
          <br />
          <span className="report-note" data-testid="arm-lift">
            relative {signed(lift.difference, relative)} ({signed(lift.lower, relative)} to {signed(lift.upper, relative)})
          </span>
        </>
      ) : null}
    </>
  );
}

function OffersTable({ experiment, offers }: { experiment: Experiment; offers: ArmOffers }) {
  return (
    <table className="report-table" data-testid="experiment-offers">
      <caption>
        What each arm sells, per market <span className="report-note">today&apos;s catalog prices; every arm sells at the prices of the market the entry shows</span>
      </caption>
      <thead>
        <tr>
          <th scope="col">Market</th>
          {experiment.arms.map((arm, index) => (
            <th scope="col" key={index}>
              {arm.path}
              {index === 0 ? " (control)" : ""}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {offers.map((row) => (
          <tr key={row.market} data-testid="offers-market" data-market={row.market}>
            <th scope="row">{row.market}</th>
            {row.arms.map((arm, index) => (
              <td key={index} data-testid="offers-arm">
                {arm.market !== row.market ? <span className="report-note">shown as {arm.market}: </span> : null}
                {arm.sells === "quiz" ? "the quiz decides" : arm.lines.map((line) => `${line.units} × ${line.productName} ${formatMinor(line.priceMinor, line.currency)}`).join(" · ") || "—"}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ShipButton({ experiment, arm, blocked }: { experiment: Experiment; arm: ArmFigures; blocked: boolean }) {
  return (
    <form method="post" action={`/admin/experiments/${experiment.key}/ship`}>
      <input type="hidden" name="arm" value={arm.arm} />
      <button type="submit" data-testid="experiment-ship" disabled={blocked} className="secondary">
        Ship {arm.path}
      </button>
    </form>
  );
}

export function ExperimentView({ operator, experiment, report, offers, notice }: { operator: Operator; experiment: Experiment; report: ExperimentReport; offers: ArmOffers; notice?: Notice | null }) {
  const owner = may(operator, "run_experiments");
  const canShip = owner && (experiment.status === "running" || experiment.status === "stopped");
  const currencies = report.arms[0]?.currencies.map((figures) => figures.currency) ?? [];
  return (
    <Frame operator={operator} section="experiments" title={`Split test: ${experiment.name}`} notice={notice}>
      <section className="panel" aria-labelledby="experiment-facts">
        <h2 id="experiment-facts">The test</h2>
        <dl className="facts">
          <dt>Status</dt>
          <dd>
            <span className="status" data-testid="experiment-status">
              {statusLabels[experiment.status]}
            </span>
            {experiment.status === "shipped" && experiment.shippedArm !== null ? ` — everyone goes to ${experiment.arms[experiment.shippedArm]?.path ?? "?"}` : null}
          </dd>
          <dt>Entry path</dt>
          <dd>
            {experiment.entryPath} <span className="muted">(and each market&apos;s version, such as {experiment.entryPath === "/" ? "/fr" : `${experiment.entryPath}/fr`})</span>
          </dd>
          <dt>Arms</dt>
          <dd>{armsText(experiment)}</dd>
          <dt>Market</dt>
          <dd>{experiment.market ?? "Every market"}</dd>
          <dt>Primary metric</dt>
          <dd data-testid="experiment-metric">{metricLabels[experiment.primaryMetric]}</dd>
          <dt>Hypothesis</dt>
          <dd>{experiment.hypothesis || "—"}</dd>
          <dt>Started</dt>
          <dd>
            {formatTime(experiment.startedAt)}
            {experiment.startedAt ? ` (${report.days.toFixed(1)} days${experiment.stoppedAt ? ", until it stopped" : ""})` : null}
          </dd>
          <dt>Key</dt>
          <dd>
            <code>{experiment.key}</code>{" "}
            <span className="muted">
              (each visitor&apos;s arm address carries xp={experiment.key}.&lt;arm&gt;.&lt;token&gt;; an order counts only with the token of its own visit, once)
            </span>
          </dd>
        </dl>
        {owner ? (
          <div className="actions">
            {experiment.status === "draft" ? (
              <form method="post" action={`/admin/experiments/${experiment.key}/start`}>
                <button type="submit">Start</button>
              </form>
            ) : null}
            {experiment.status === "running" || experiment.status === "shipped" ? (
              <form method="post" action={`/admin/experiments/${experiment.key}/stop`}>
                <button type="submit" className="danger" data-testid="experiment-stop">
                  {experiment.status === "shipped" ? "End the shipped test: the entry path serves its own page again" : "Stop the test"}
                </button>
              </form>
            ) : null}
          </div>
        ) : null}
      </section>

      {report.srm.alert ? (
        <p className="notice error" role="alert" data-testid="experiment-srm">
          Sample-ratio mismatch: the visitors per arm are not split as the weights say (chi-square {report.srm.chiSquare.toFixed(1)}, p = {report.srm.pValue.toExponential(1)}, below{" "}
          {srmAlertBelow}). The counts themselves are wrong, so no arm can be shipped from them; look for what treats the arms differently (a redirect, a broken page, crawlers).
        </p>
      ) : null}
      {/* Waiting for data is the normal state of a young test, not a fault: it is told plainly, not as an error. */}
      <p className={`notice ${report.gate.ready ? "ok" : "info"}`} data-testid="experiment-verdict">
        {report.gate.ready
          ? `Enough data for a verdict (7 days and 30 orders per arm), ${verdictBasis(report.primaryMetric, report.comparisons)}. The intervals hold however often this page is looked at.`
          : `${report.gate.reason ?? ""} Until then the intervals are shown but no arm is called better; shipping asks for confirmation.`}
      </p>
      {report.ordersLeftOut > 0 ? (
        <p className="muted" data-testid="experiment-left-out">
          {report.ordersLeftOut} {report.ordersLeftOut === 1 ? "order carries" : "orders carry"} an arm of this test but {report.ordersLeftOut === 1 ? "does" : "do"} not count: placed before it started or after it stopped, or a
          further order from a visit that already ordered (an arm&apos;s address shared or pasted).
        </p>
      ) : null}

      {report.ordersWithoutToken > 0 ? (
        <p className="notice error" data-testid="experiment-without-token">
          {report.ordersWithoutToken} paid {report.ordersWithoutToken === 1 ? "order carries" : "orders carry"} an arm of this test but no exposure token: placed before the store made tokens,{" "}
          {report.ordersWithoutToken === 1 ? "it counts" : "they count"} for no arm, while the visitors of that time are counted. Conversion and revenue per visitor are understated by as much, in
          whichever arms they came from; a test started after tokens existed has none of these.
        </p>
      ) : null}
      <table className="report-table" data-testid="experiment-report">
        <caption>
          Per arm{report.includeTest ? ", test orders included" : ""}{" "}
          <span className="report-note">differences to the control with 95% confidence sequences (GrowthBook&apos;s asymptotic method)</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Arm</th>
            <th scope="col" className="report-number">
              Visitors
            </th>
            <th scope="col" className="report-number">
              Checkouts
            </th>
            <th scope="col" className="report-number">
              Orders
            </th>
            <th scope="col" className="report-number">
              Conversion
            </th>
            <th scope="col" className="report-number">
              Conversion vs control
            </th>
            <th scope="col" className="report-number">
              Upsell take rate
            </th>
            <th scope="col" className="report-number">
              Upsell vs control
            </th>
            <th scope="col" className="report-number">
              Add-on take rate
            </th>
            <th scope="col" className="report-number">
              Add-on vs control
            </th>
            <th scope="col">Verdict ({metricLabels[report.primaryMetric].toLowerCase()})</th>
            {canShip ? <th scope="col">Ship</th> : null}
          </tr>
        </thead>
        <tbody>
          {report.arms.map((arm) => (
            <tr key={arm.arm} data-testid="experiment-arm" data-arm={arm.path}>
              <th scope="row">
                {arm.path} <span className="report-note">{arm.weight}%</span>
                {arm.arm === 0 ? <span className="report-note"> control</span> : null}
              </th>
              <td className="report-number" data-testid="arm-visitors">
                {arm.visitors}
              </td>
              <td className="report-number">{arm.checkoutsStarted}</td>
              <td className="report-number" data-testid="arm-orders">
                {arm.orders}
              </td>
              <td className="report-number" data-testid="arm-conversion">
                {arm.problem ? <span className="report-note">{arm.problem}</span> : percent(arm.conversion)}
              </td>
              <td className="report-number" data-testid="arm-conversion-difference">
                {arm.arm === 0 ? "—" : <DifferenceCell difference={arm.conversionDifference} lift={arm.conversionLift} format={points} />}
              </td>
              <td className="report-number">
                {percent(arm.upsellTakeRate, 0)} <span className="report-note">({arm.upsellTaken} of {arm.upsellShown})</span>
              </td>
              <td className="report-number">{arm.arm === 0 ? "—" : <IntervalText interval={arm.upsellTakeRateDifference} format={points} />}</td>
              <td className="report-number" data-testid="arm-bump-take-rate">
                {percent(arm.bumpTakeRate, 0)} <span className="report-note">({arm.bumpTaken} of {arm.orders})</span>
              </td>
              <td className="report-number">{arm.arm === 0 ? "—" : <IntervalText interval={arm.bumpTakeRateDifference} format={points} />}</td>
              <td>{arm.arm === 0 ? "—" : (arm.verdict ?? <span className="muted">none yet</span>)}</td>
              {canShip ? (
                <td>
                  <ShipButton experiment={experiment} arm={arm} blocked={report.srm.alert} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>

      {currencies.length === 0 ? (
        <p className="report-empty">No visitors or orders yet.</p>
      ) : (
        <table className="report-table">
          <caption>
            Revenue per currency <span className="report-note">net of refunds, each order capped at the 99.9th percentile of its market; never added across currencies</span>
          </caption>
          <thead>
            <tr>
              <th scope="col">Currency</th>
              <th scope="col">Arm</th>
              <th scope="col" className="report-number">
                Visitors
              </th>
              <th scope="col" className="report-number">
                Orders
              </th>
              <th scope="col" className="report-number">
                Revenue
              </th>
              <th scope="col" className="report-number">
                Average order
              </th>
              <th scope="col" className="report-number">
                vs control
              </th>
              <th scope="col" className="report-number">
                Revenue per visitor
              </th>
              <th scope="col" className="report-number">
                vs control
              </th>
            </tr>
          </thead>
          <tbody>
            {currencies.flatMap((currency) =>
              report.arms.map((arm) => {
                const figures = arm.currencies.find((candidate) => candidate.currency === currency);
                if (!figures) return null;
                const money = (minor: number) => formatMinor(minor, currency);
                return (
                  <tr key={`${currency}-${arm.arm}`}>
                    <th scope="row">{arm.arm === 0 ? currency : ""}</th>
                    <td>{arm.path}</td>
                    <td className="report-number">{figures.visitors}</td>
                    <td className="report-number">{figures.orders}</td>
                    <td className="report-number">{money(figures.revenueMinor)}</td>
                    <td className="report-number">{figures.averageOrderValueMinor === null ? "—" : money(figures.averageOrderValueMinor)}</td>
                    <td className="report-number">{arm.arm === 0 ? "—" : <IntervalText interval={figures.averageOrderValueDifference} format={money} />}</td>
                    <td className="report-number">{figures.revenuePerVisitorMinor === null ? "—" : money(figures.revenuePerVisitorMinor)}</td>
                    <td className="report-number">{arm.arm === 0 ? "—" : <DifferenceCell difference={figures.difference} lift={figures.lift} format={money} />}</td>
                  </tr>
                );
              }),
            )}
          </tbody>
        </table>
      )}
      <OffersTable experiment={experiment} offers={offers} />
      {report.caps.length > 0 ? (
        <p className="muted">Capped orders: {report.caps.map((cap) => `${cap.market} at ${formatMinor(cap.capMinor, cap.currency)}`).join(", ")}.</p>
      ) : null}
      <p>
        <a href={`/admin/experiments/${experiment.key}?test=${report.includeTest ? "0" : "1"}`}>{report.includeTest ? "Leave test orders out" : "Include test orders"}</a> ·{" "}
        <a href="/admin/experiments">All split tests</a>
      </p>
    </Frame>
  );
}

/** Shipping before a verdict: said plainly, confirmed with a second press. */
export function ShipConfirmView({ operator, experiment, arm, reason }: { operator: Operator; experiment: Experiment; arm: number; reason: string }) {
  const path = experiment.arms[arm]?.path ?? "?";
  return (
    <Frame operator={operator} section="experiments" title={`Ship ${path} before a verdict?`}>
      <section className="panel">
        <p>{reason}</p>
        <p>
          Shipping now sends every visitor of {experiment.entryPath} to {path} without evidence that it sells better. Do it when an arm is broken or the test must end for another reason.
        </p>
        <div className="actions">
          <form method="post" action={`/admin/experiments/${experiment.key}/ship`}>
            <input type="hidden" name="arm" value={arm} />
            <input type="hidden" name="confirm" value="yes" />
            <button type="submit" className="danger" data-testid="experiment-ship-confirm">
              Ship {path} anyway
            </button>
          </form>
          <a className="button secondary" href={`/admin/experiments/${experiment.key}`}>
            Back to the report
          </a>
        </div>
      </section>
    </Frame>
  );
}
