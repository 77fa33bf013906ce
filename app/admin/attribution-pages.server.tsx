import type { AdminRoute } from "./admin-route.server";
import { attributionCsv, attributionReport } from "./attribution-report.server";
import { download, page } from "./http.server";
import { AttributionView } from "./views/attribution-view";
import { readReportFilter } from "./views/report-view";

/** Which source, medium and campaign brought the orders (docs/decisions/0045-the-touch-of-a-visit.md), on screen and as CSV. */
export const attributionRoutes: readonly AdminRoute[] = [
  {
    path: "attribution",
    nav: { label: "Attribution", permission: "view" },
    async loader({ store, operator, url }) {
      const filter = readReportFilter(url.searchParams, new Date(), store.settings.storeMode);
      const report = await attributionReport(store.db, { from: filter.from, to: filter.to, includeTest: filter.includeTest });
      return page(<AttributionView operator={operator} filter={filter} report={report} open={url.searchParams.get("open")} />);
    },
  },
  {
    path: "attribution.csv",
    async loader({ store, url }) {
      const filter = readReportFilter(url.searchParams, new Date(), store.settings.storeMode);
      const report = await attributionReport(store.db, { from: filter.from, to: filter.to, includeTest: filter.includeTest });
      return download(attributionCsv(report), "text/csv; charset=utf-8", `attribution-${filter.from}-to-${filter.to}.csv`);
    },
  },
];
