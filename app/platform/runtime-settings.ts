/** Settings the browser reads after hydration (prerendered pages cannot carry runtime settings). */
export interface RuntimeSettings {
  gtmId: string | null;
  buildCheckIntervalMs: number;
  /** The ids of the providers that take payments, for the payment marks (a `PaymentSetup`). */
  paymentProviders: string[];
}

export const runtimeSettingsPath = "/storefront-settings";
export const defaultBuildCheckIntervalMs = 60 * 60 * 1000;

let settings: Promise<RuntimeSettings> | undefined;

/** Fetched once per page life; a failure means no tag manager, the default build check and no payment marks. */
export function fetchRuntimeSettings(): Promise<RuntimeSettings> {
  settings ??= fetch(runtimeSettingsPath)
    .then((response) => (response.ok ? (response.json() as Promise<RuntimeSettings>) : Promise.reject(new Error(String(response.status)))))
    .catch(() => ({ gtmId: null, buildCheckIntervalMs: defaultBuildCheckIntervalMs, paymentProviders: [] }));
  return settings;
}
