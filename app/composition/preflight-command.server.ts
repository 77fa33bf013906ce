import { readCommerceSettings } from "../store/commerce-settings";
import { formatPreflight, preflightFailed, runPreflight } from "./preflight.server";

/** `npm run preflight`: the go-live check with the settings of the environment; true when nothing fails. */
export async function preflightFromCommandLine(): Promise<{ report: string; ok: boolean }> {
  const checks = await runPreflight(readCommerceSettings(process.env));
  return { report: formatPreflight(checks), ok: !preflightFailed(checks) };
}
