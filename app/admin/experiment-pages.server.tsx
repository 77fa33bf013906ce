import { offerForRoute } from "../catalog/catalog.server";
import { marketOfPage, readExperimentForm } from "../experiments/experiment-model";
import { routeEntryForPath } from "../funnel/route-for-path";
import { markets } from "../market/markets";
import { createExperiment, findExperiment, listExperiments, shipExperiment, startExperiment, stopExperiment, type Change, type Experiment } from "../experiments/experiments.server";
import { experimentReport } from "../experiments/report.server";
import { forbidden, noticeFrom, notFound, param, type AdminContext, type AdminRoute, type Answer } from "./admin-route.server";
import type { Transaction } from "../db/database.server";
import { recordAudit } from "../operators/audit.server";
import { page, redirect } from "./http.server";
import { readForm } from "./form.server";
import { may } from "./operators.server";
import { emptyDraft, ExperimentsView, ExperimentView, ShipConfirmView, type ArmOffers, type ExperimentDraft } from "./views/experiments-view";
import type { Notice } from "./views/frame";

/**
 * Split tests in the back office (docs/decisions/0028-split-tests.md): owners create, start, stop
 * and ship; support reads. Every change is written to the audit log in the transaction that makes it.
 */

const notices: Record<string, Notice> = {
  started: { kind: "ok", text: "The test is running: visitors of its entry path are split from now on." },
  created: { kind: "ok", text: "Saved as a draft. Start it when it is ready." },
  stopped: { kind: "ok", text: "The test is stopped: its entry path serves its own page again." },
  shipped: { kind: "ok", text: "Shipped: every visitor of the entry path now goes to this arm." },
};

const notAllowed = "Only an owner starts, stops and ships split tests. Nothing was changed.";

function draftOf(form: URLSearchParams): ExperimentDraft {
  const weights = form.getAll("armWeight");
  return {
    name: form.get("name") ?? "",
    entry: form.get("entry") ?? "",
    arms: form.getAll("armPath").map((path, index) => ({ path, weight: weights[index] ?? "" })),
    market: form.get("market") ?? "",
    hypothesis: form.get("hypothesis") ?? "",
    primaryMetric: form.get("primaryMetric") ?? "",
  };
}

/**
 * What each arm sells in each market of the test, today: its page's offer in the currency of the
 * market its page shows, so an operator sees side by side that the arms differ only as intended.
 * Only offer pages show an offer of their own; a quiz's offer follows the answers, and other pages
 * show none, so neither is given the catalog's default offer.
 */
export function armOffers(experiment: Pick<Experiment, "market" | "arms">, today = new Date()): ArmOffers {
  return markets
    .filter((market) => experiment.market === null || market.country === experiment.market)
    .map((market) => ({
      market: market.country,
      arms: experiment.arms.map((arm) => {
        const country = marketOfPage(arm.path, market.country);
        const currency = markets.find((candidate) => candidate.country === country)?.currency ?? market.currency;
        const route = routeEntryForPath(arm.path);
        if (route?.page === "quiz" || route?.page === "summary") return { market: country, sells: "quiz" as const, lines: [] };
        if (route?.page !== "offer") return { market: country, sells: "nothing" as const, lines: [] };
        const lines = offerForRoute(route.name, currency, today, "en_GB").lines.map((line) => ({ units: line.units, productName: line.productName, priceMinor: line.priceMinor, currency }));
        return { market: country, sells: "offer" as const, lines };
      }),
    }));
}

async function showList({ store, operator }: AdminContext, notice: Notice | null, draft = emptyDraft, errors: string[] = [], status = 200): Promise<Answer> {
  return page(<ExperimentsView operator={operator} experiments={await listExperiments(store.db)} draft={draft} errors={errors} notice={notice} />, status);
}

async function showExperiment(context: AdminContext, experiment: Experiment, notice: Notice | null, status = 200): Promise<Answer> {
  const { store, operator, url } = context;
  // A store in test mode has only test orders, so they count unless left out.
  const includeTest = url.searchParams.has("test") ? url.searchParams.get("test") === "1" : store.settings.storeMode === "test";
  const report = await experimentReport(store.db, experiment, { includeTest });
  return page(<ExperimentView operator={operator} experiment={experiment} report={report} offers={armOffers(experiment)} notice={notice} />, status);
}

const auditDetail = (experiment: Experiment) => ({
  experiment: experiment.key,
  name: experiment.name,
  entry: experiment.entryPath,
  arms: experiment.arms.map((arm) => `${arm.path}=${arm.weight}`).join(" "),
  market: experiment.market,
});

/** A change and its audit line in one transaction; a refusal changes nothing and logs nothing. */
async function change(context: AdminContext, action: string, make: (tx: Transaction) => Promise<Change>, extra: Record<string, string | number> = {}): Promise<Change> {
  const { store, operator } = context;
  return store.db.transaction(async (tx) => {
    const result = await make(tx);
    if (result.kind === "done") await recordAudit(tx, operator, action, { detail: { ...auditDetail(result.experiment), ...extra } });
    return result;
  });
}

async function afterChange(context: AdminContext, key: string, result: Change, done: string): Promise<Answer> {
  if (result.kind === "done") return redirect(`/admin/experiments/${result.experiment.key}?done=${done}`);
  const experiment = await findExperiment(context.store.db, key);
  if (!experiment) return notFound(result.text);
  return showExperiment(context, experiment, { kind: "error", text: `${result.text} Nothing was changed.` }, result.reason === "entry_taken" || result.reason === "wrong_status" || result.reason === "loop" ? 409 : 400);
}

const experimentKey = (context: AdminContext) => param(context.params, "key", /^[a-z0-9]{8}$/);

/** Starting or stopping a test, as its own page's buttons post it. */
function startOrStop(action: "start" | "stop") {
  return async (context: AdminContext): Promise<Answer> => {
    const key = experimentKey(context);
    if (!may(context.operator, "run_experiments")) return forbidden(notAllowed);
    if (action === "start") return afterChange(context, key, await change(context, "experiment_started", (tx) => startExperiment(tx, key)), "started");
    return afterChange(context, key, await change(context, "experiment_stopped", (tx) => stopExperiment(tx, key)), "stopped");
  };
}

export const experimentRoutes: readonly AdminRoute[] = [
  {
    path: "experiments",
    nav: { label: "Split tests", permission: "view" },
    loader: (context) => showList(context, noticeFrom(context.url, notices)),
    async action(context) {
      if (!may(context.operator, "run_experiments")) return forbidden(notAllowed);
      const form = await readForm(context.request);
      const { input, errors } = readExperimentForm(form);
      if (errors.length > 0) return showList(context, null, draftOf(form), errors, 400);
      const start = form.get("intent") !== "draft";
      const result = await change(context, start ? "experiment_started" : "experiment_created", (tx) => createExperiment(tx, input, start));
      if (result.kind === "refused") return showList(context, null, draftOf(form), [result.text], 409);
      return redirect(`/admin/experiments/${result.experiment.key}?done=${start ? "started" : "created"}`);
    },
  },
  {
    path: "experiments/:key",
    async loader(context) {
      const experiment = await findExperiment(context.store.db, experimentKey(context));
      if (!experiment) return notFound("There is no such split test.");
      return showExperiment(context, experiment, noticeFrom(context.url, notices));
    },
  },
  { path: "experiments/:key/start", action: startOrStop("start") },
  { path: "experiments/:key/stop", action: startOrStop("stop") },
  {
    path: "experiments/:key/ship",
    async action(context) {
      const { store, operator, request } = context;
      const key = experimentKey(context);
      if (!may(operator, "run_experiments")) return forbidden(notAllowed);
      const experiment = await findExperiment(store.db, key);
      if (!experiment) return notFound("There is no such split test.");
      const form = await readForm(request);
      const arm = Number(form.get("arm") ?? "-1");
      const report = await experimentReport(store.db, experiment, { includeTest: store.settings.storeMode === "test" });
      // Only a sample-ratio alert blocks shipping: then the counts themselves are wrong.
      if (report.srm.alert) {
        return showExperiment(context, experiment, { kind: "error", text: "The sample-ratio check alerts, so the counts cannot be trusted and no arm is shipped from them. Nothing was changed." }, 409);
      }
      if (!report.gate.ready && form.get("confirm") !== "yes" && experiment.arms[arm]) {
        return page(<ShipConfirmView operator={operator} experiment={experiment} arm={arm} reason={report.gate.reason ?? ""} />);
      }
      const result = await change(context, "experiment_shipped", (tx) => shipExperiment(tx, key, arm), { shippedArm: arm, shippedPath: experiment.arms[arm]?.path ?? "", beforeVerdict: report.gate.ready ? 0 : 1 });
      return afterChange(context, key, result, "shipped");
    },
  },
];
