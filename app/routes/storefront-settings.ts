import { runtimeSettings } from "../platform/settings.server";

/** Runtime settings the browser needs after hydration; prerendered pages cannot carry them. */
export function loader() {
  return Response.json(runtimeSettings(), { headers: { "Cache-Control": "no-cache" } });
}
