import { listExperiments } from "../experiments/experiments.server";
import { parseXp } from "../experiments/experiment-model";
import type { AdminRoute } from "./admin-route.server";
import { funnelReport } from "./funnel-report.server";
import { page } from "./http.server";
import { ReportView, readReportFilter } from "./views/report-view";

export const reportRoutes: readonly AdminRoute[] = [
  {
    path: "report",
    nav: { label: "Funnel report", permission: "view" },
    async loader({ store, operator, url }) {
      const filter = readReportFilter(url.searchParams, new Date(), store.settings.storeMode);
      const report = await funnelReport(store.db, {
        from: filter.from,
        to: filter.to,
        ...(filter.src !== null ? { src: filter.src } : {}),
        ...(filter.market ? { market: filter.market } : {}),
        includeTest: filter.includeTest,
        ...(filter.arm ? { arm: filter.arm } : {}),
      });
      // Running split tests are offered as filters, and the chosen one whatever its state.
      const chosenKey = parseXp(filter.arm)?.key;
      const experiments = (await listExperiments(store.db)).filter((experiment) => experiment.status === "running" || experiment.key === chosenKey);
      return page(<ReportView operator={operator} filter={filter} report={report} experiments={experiments} />);
    },
  },
];
