import type { ExperimentArmRow } from "../db/schema";
import { routeRows } from "../funnel/route-table";
import { marketForCountryCode, marketForRouteValue } from "../market/markets";

/**
 * What a split test is made of and how it is written in a URL (DESIGN §18). The arm travels in
 * the query as `xp=<experiment key>.<arm number>`, arm 0 being the control.
 */

export const minArms = 2;
export const maxArms = 4;
export const maxNameLength = 80;
export const maxHypothesisLength = 1000;

const xpPattern = /^([a-z0-9]{8})\.([0-3])$/;

export interface ExperimentInput {
  name: string;
  entryPath: string;
  arms: ExperimentArmRow[];
  market: string | null;
  hypothesis: string;
}

/** Paths an arm or an entry may be: rows of the route table with a locale twin, so `/offer/fr` splits like `/offer`. */
const splittablePaths = new Map<string, string>(
  routeRows.filter((row) => !("twin" in row) && !("perRequest" in row)).map((row) => [row.path.toLowerCase(), row.path]),
);

/** The route table's own spelling of a path (`/offerv4` → `/offerV4`), or undefined when it has none. */
export function routePath(path: string): string | undefined {
  return splittablePaths.get(path.trim().toLowerCase());
}

export function xpValue(key: string, arm: number): string {
  return `${key}.${arm}`;
}

/** The experiment and arm an `xp` value names, by its form only (whether they exist is the caller's). */
export function parseXp(value: string | null | undefined): { key: string; arm: number } | null {
  const found = value ? xpPattern.exec(value) : null;
  return found?.[1] ? { key: found[1], arm: Number(found[2]) } : null;
}

export interface ExperimentForm {
  input: ExperimentInput;
  /** Why the form cannot be taken as it is, one sentence per mistake; empty when it can. */
  errors: string[];
}

/**
 * Reads the back office's form (`name`, `entry`, repeated `armPath` and `armWeight`, `market`,
 * `hypothesis`). Pairs left empty are not arms; everything else is checked here except whether
 * the entry path is already under a running test, which only the database knows.
 */
export function readExperimentForm(form: URLSearchParams): ExperimentForm {
  const errors: string[] = [];
  const name = (form.get("name") ?? "").trim();
  if (name === "") errors.push("Give the experiment a name.");
  else if (name.length > maxNameLength) errors.push(`The name is longer than ${maxNameLength} characters.`);

  const entryText = (form.get("entry") ?? "").trim();
  const entryPath = routePath(entryText);
  if (!entryPath) errors.push(`The entry path "${entryText}" is not a page of the route table that has a version per market.`);

  const paths = form.getAll("armPath");
  const weights = form.getAll("armWeight");
  const arms: ExperimentArmRow[] = [];
  for (let index = 0; index < Math.max(paths.length, weights.length); index++) {
    const pathText = (paths[index] ?? "").trim();
    const weightText = (weights[index] ?? "").trim();
    if (pathText === "" && weightText === "") continue;
    const label = index === 0 ? "The control arm" : `Arm ${index + 1}`;
    const path = routePath(pathText);
    if (!path) errors.push(`${label}: "${pathText}" is not a page of the route table that has a version per market.`);
    const weight = /^\d{1,3}$/.test(weightText) ? Number(weightText) : Number.NaN;
    if (!(weight >= 1 && weight <= 99)) errors.push(`${label}: the weight must be a whole number of percent from 1 to 99.`);
    arms.push({ path: path ?? pathText, weight: Number.isNaN(weight) ? 0 : weight });
  }
  if (arms.length < minArms || arms.length > maxArms) errors.push(`A test has ${minArms} to ${maxArms} arms; this one has ${arms.length}.`);
  const total = arms.reduce((sum, arm) => sum + arm.weight, 0);
  if (arms.length >= minArms && total !== 100) errors.push(`The weights add up to ${total}, not 100.`);
  const seen = new Set<string>();
  for (const arm of arms) {
    const path = arm.path.toLowerCase();
    if (seen.has(path)) errors.push(`Two arms have the path ${arm.path}: each arm must be another page.`);
    seen.add(path);
  }

  const marketText = (form.get("market") ?? "").trim();
  const market = marketText === "" ? null : (marketForCountryCode(marketText)?.country ?? null);
  if (marketText !== "" && !market) errors.push(`"${marketText}" is not one of the store's markets.`);

  const hypothesis = (form.get("hypothesis") ?? "").trim();
  if (hypothesis.length > maxHypothesisLength) errors.push(`The hypothesis is longer than ${maxHypothesisLength} characters.`);

  return { input: { name, entryPath: entryPath ?? entryText, arms, market, hypothesis }, errors };
}

/**
 * An entry path and the locale segment of a request path: `/offer/fr` → `/offer` and `fr`,
 * `/offer` → `/offer` and null, `/fr` → `/` and `fr`. Lower case, as the router matches.
 */
export function splitLocale(pathname: string): { path: string; locale: string | null } {
  const lower = pathname.toLowerCase();
  const slash = lower.lastIndexOf("/");
  const last = lower.slice(slash + 1);
  if (slash >= 0 && last !== "" && marketForRouteValue(last)) return { path: lower.slice(0, slash) || "/", locale: last };
  return { path: lower, locale: null };
}

/** A path of the route table in a locale: `/offer2` and `fr` → `/offer2/fr`; `/` and `fr` → `/fr`. */
export function withLocale(path: string, locale: string | null): string {
  if (!locale) return path;
  return path === "/" ? `/${locale}` : `${path}/${locale}`;
}

/** The `xp` value an order keeps: exactly as carried when well formed, else none. */
export function armOfQuery(value: string | null): string | null {
  const xp = parseXp(value);
  return xp ? xpValue(xp.key, xp.arm) : null;
}
