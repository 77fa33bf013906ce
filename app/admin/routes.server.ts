import type { AdminRoute } from "./admin-route.server";
import { attributionRoutes } from "./attribution-pages.server";
import { codeRoutes } from "./code-pages.server";
import { experimentRoutes } from "./experiment-pages.server";
import { filesRoutes } from "./files-pages.server";
import { fulfilmentRoutes } from "./fulfilment-pages.server";
import { orderRoutes } from "./order-pages.server";
import { privacyRoutes } from "./privacy-pages.server";
import { reportRoutes } from "./report-pages.server";
import { requestRoutes } from "./requests-pages.server";
import { reviewRoutes } from "./review-pages.server";

/**
 * Every back-office page, one line per route module, in the order of the navigation (a route with
 * `nav` is its section's entry there). A new page is a route module and its line here.
 */
export const adminRoutes: readonly AdminRoute[] = [
  ...orderRoutes,
  ...fulfilmentRoutes,
  ...filesRoutes,
  ...requestRoutes,
  ...reviewRoutes,
  ...privacyRoutes,
  ...reportRoutes,
  ...attributionRoutes,
  ...experimentRoutes,
  ...codeRoutes,
];
