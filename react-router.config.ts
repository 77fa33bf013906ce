import type { Config } from "@react-router/dev/config";
import { prerenderPaths } from "./app/funnel/prerender";

export default {
  ssr: true,
  // Routes whose URL carries the locale have content decided by the URL alone: they become
  // static files. Routes without one depend on the visitor's geo country and render per request.
  prerender: () => prerenderPaths(),
  // The whole route manifest (~4 KB compressed) is known from the start, so prefetching and the
  // chunk-failure guard can load any route's code, and no /__manifest requests are needed.
  routeDiscovery: { mode: "initial" },
  future: {
    // Middleware lets the locale guard answer 404 before any loader runs.
    v8_middleware: true,
  },
} satisfies Config;
