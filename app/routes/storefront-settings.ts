import { gtmSettings } from "../platform/settings.server";

/** Runtime settings the browser needs after hydration; prerendered pages cannot carry them. */
export function loader() {
  return Response.json({ gtmId: gtmSettings() }, { headers: { "Cache-Control": "no-cache" } });
}
