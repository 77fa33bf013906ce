import type { RuntimeSettings } from "../platform/runtime-settings";
import { runtimeSettings } from "../store/settings.server";
import { store } from "../store/store.server";

/** Runtime settings the browser needs after hydration; prerendered pages cannot carry them. */
export function loader() {
  const settings: RuntimeSettings = { ...runtimeSettings(), paymentProviders: [...store().providers.keys()] };
  return Response.json(settings, { headers: { "Cache-Control": "no-cache" } });
}
