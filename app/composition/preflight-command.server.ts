import { failed, type PreflightCheck } from "../payments/preflight-check";
import { formatPreflight, preflightFailed, runPreflight, type PreflightDatabase } from "./preflight.server";
import { readStoreSettings } from "./settings.server";

/**
 * The go-live check of an environment's settings: every check, each with its fix, whatever is
 * missing. Settings that would stop the store from starting are failed lines of their own.
 */
export async function preflightOf(env: Record<string, string | undefined>, running: PreflightDatabase = null): Promise<PreflightCheck[]> {
  const problems: string[] = [];
  const settings = readStoreSettings(env, { problems });
  const fixOf = (problem: string) => problem.slice(problem.indexOf(": ") + 2).replace(/^./, (first) => first.toUpperCase());
  const settingsChecks = problems.map((problem) => failed("Settings", problem, fixOf(problem)));
  return [...settingsChecks, ...(await runPreflight(settings, running))];
}

/** `npm run preflight`: the go-live check with the settings of the environment; true when nothing fails. */
export async function preflightFromCommandLine(): Promise<{ report: string; ok: boolean }> {
  const checks = await preflightOf(process.env);
  return { report: formatPreflight(checks), ok: !preflightFailed(checks) };
}
