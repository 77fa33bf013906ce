import { parseXp, xpValue } from "../../experiments/experiment-model";
import type { Experiment } from "../../experiments/experiments.server";
import { markets } from "../../market/markets";
import type { Operator } from "../../operators/audit.server";
import type { FunnelReport } from "../funnel-report.server";
import { FunnelReportView } from "../funnel-report-view";
import { Frame, MarketSelect } from "./frame";

export interface ReportFilter {
  from: string;
  to: string;
  /** One variant; `""` is traffic without one; null is every variant. */
  src: string | null;
  market: string;
  includeTest: boolean;
  /** Whether test orders count because the store is in test mode and nobody said otherwise. */
  testByDefault: boolean;
  /** One split test's arm (`k3j9x2ab.1`), or null for all traffic. */
  arm: string | null;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (value: string | null): value is string => !!value && dayPattern.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

/**
 * The report's filter from its query; the last 30 days by default, and a range the right way round.
 * Test orders count by default while the store is in test mode, which has no others (as on the
 * split-test page); the form always sends `test=0`, and `test=1` beside it when they are wanted.
 */
export function readReportFilter(params: URLSearchParams, today: Date, storeMode: "test" | "live"): ReportFilter {
  const todayDay = today.toISOString().slice(0, 10);
  const monthAgo = new Date(today.getTime() - 29 * 86_400_000).toISOString().slice(0, 10);
  let from = params.get("from");
  let to = params.get("to");
  from = validDay(from) ? from : monthAgo;
  to = validDay(to) ? to : todayDay;
  if (from > to) [from, to] = [to, from];
  const src = params.get("src");
  const market = params.get("market") ?? "";
  return {
    from,
    to,
    src: src === null || src === "*" ? null : /^[A-Za-z0-9_-]{0,64}$/.test(src) ? src : null,
    market: markets.some((candidate) => candidate.country === market) ? market : "",
    includeTest: params.has("test") ? params.getAll("test").includes("1") : storeMode === "test",
    testByDefault: !params.has("test") && storeMode === "test",
    arm: parseXp(params.get("arm")) ? params.get("arm") : null,
  };
}

/** The arms of the running split tests (and of the one chosen, whatever its state), as filter choices. */
function ArmSelect({ value, experiments }: { value: string | null; experiments: Experiment[] }) {
  return (
    <label>
      Split test arm
      <select name="arm" defaultValue={value ?? ""} data-testid="report-arm">
        <option value="">All traffic</option>
        {experiments.map((experiment) => (
          <optgroup key={experiment.key} label={`${experiment.name} (${experiment.entryPath})`}>
            {experiment.arms.map((arm, index) => (
              <option key={index} value={xpValue(experiment.key, index)}>
                {`${arm.path}${index === 0 ? " (control)" : ""}`}
              </option>
            ))}
          </optgroup>
        ))}
      </select>
    </label>
  );
}

export function ReportView({ operator, filter, report, experiments = [] }: { operator: Operator; filter: ReportFilter; report: FunnelReport; experiments?: Experiment[] }) {
  return (
    <Frame operator={operator} section="report" title="Funnel report">
      <form method="get" action="/admin/report" className="panel filters">
        <label>
          From
          <input type="date" name="from" defaultValue={filter.from} required />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={filter.to} required />
        </label>
        <label>
          Variant (src)
          <input type="text" name="src" defaultValue={filter.src ?? "*"} size={10} pattern="\*|[A-Za-z0-9_\-]{0,64}" aria-describedby="src-hint" />
        </label>
        <MarketSelect value={filter.market} noneLabel="All" />
        {experiments.length > 0 ? <ArmSelect value={filter.arm} experiments={experiments} /> : null}
        <input type="hidden" name="test" value="0" />
        <label className="inline">
          <input type="checkbox" name="test" value="1" defaultChecked={filter.includeTest} /> Include test orders
        </label>
        <button type="submit">Show</button>
        <p id="src-hint" className="muted">
          Variant: * for every variant, empty for visits without one.
        </p>
      </form>
      {filter.testByDefault ? (
        <p className="notice info" data-testid="report-test-orders">
          Test orders are included: the store is in test mode, so it has no others. Untick the box to leave them out.
        </p>
      ) : null}
      <FunnelReportView report={report} />
    </Frame>
  );
}
