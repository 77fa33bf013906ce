import { primaryMetrics, type ExperimentArmRow, type PrimaryMetric } from "./schema";
import { routeRows } from "../funnel/route-table";
import { applySpecialOfferRule } from "../market/country-resolution";
import { marketForCountryCode, marketForRouteValue, markets, type CountryCode } from "../market/markets";

/**
 * What a split test is made of and how it is written in a URL (docs/decisions/0028-split-tests.md,
 * 0035-exposure-tokens.md). The arm travels in the query as `xp=<experiment key>.<arm number>.<token>`,
 * arm 0 being the control; the token, signed by the store, names the one exposure behind the visit
 * (`exposure-token.server.ts`). A value without it still names the arm, but counts for nothing.
 */

const minArms = 2;
export const maxArms = 4;
const maxNameLength = 80;
const maxHypothesisLength = 1000;

/** An exposure token: 36 base64url characters (`exposure-token.server.ts` makes and reads them). */
export const exposureTokenPattern = /^[A-Za-z0-9_-]{36}$/;
const xpPattern = /^([a-z0-9]{8})\.([0-3])(?:\.([A-Za-z0-9_-]{36}))?$/;

export interface ExperimentInput {
  name: string;
  entryPath: string;
  arms: ExperimentArmRow[];
  market: string | null;
  hypothesis: string;
  primaryMetric: PrimaryMetric;
}

/** Paths an arm or an entry may be: rows of the route table with a locale twin, so `/offer/fr` splits like `/offer`. */
const splittablePaths = new Map<string, string>(
  routeRows.filter((row) => !("twin" in row) && !("perRequest" in row)).map((row) => [row.path.toLowerCase(), row.path]),
);

/** The route table's own spelling of a path (`/offerv4` → `/offerV4`), or undefined when it has none. */
function routePath(path: string): string | undefined {
  return splittablePaths.get(path.trim().toLowerCase());
}

/** `key.arm`, or `key.arm.token` when a token is given. */
export function xpValue(key: string, arm: number, token?: string | null): string {
  return token ? `${key}.${arm}.${token}` : `${key}.${arm}`;
}

/**
 * The experiment, arm and exposure token (null when none) an `xp` value names, by its form only:
 * whether they exist and whether the token's signature holds is the caller's.
 */
export function parseXp(value: string | null | undefined): { key: string; arm: number; token: string | null } | null {
  const found = value ? xpPattern.exec(value) : null;
  return found?.[1] ? { key: found[1], arm: Number(found[2]), token: found[3] ?? null } : null;
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

  const metricText = (form.get("primaryMetric") ?? "").trim();
  const primaryMetric = primaryMetrics.find((metric) => metric === metricText);
  if (!primaryMetric) errors.push("Choose the primary metric the verdict is given on: conversion or revenue per visitor.");

  if (entryPath && errors.length === 0) errors.push(...marketMismatches(entryPath, arms, market));

  return { input: { name, entryPath: entryPath ?? entryText, arms, market, hypothesis, primaryMetric: primaryMetric ?? "conversion" }, errors };
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

/** The market a visitor of `path` sees, given the market of the locale segment or of the geo headers. */
export function marketOfPage(path: string, market: CountryCode): CountryCode {
  return applySpecialOfferRule(market, path);
}

/**
 * Arms sell at one price: an arm whose page shows any visitor of the test another market than the
 * entry does (special-offer paths force France) is refused, one sentence per such arm. The form
 * asks it, and so does starting a test, as a draft may have been saved before arms were checked.
 */
export function marketMismatches(entryPath: string, arms: readonly ExperimentArmRow[], market: string | null): string[] {
  const visitors = markets.filter((candidate) => market === null || candidate.country === market).map((candidate) => candidate.country);
  const errors: string[] = [];
  arms.forEach((arm, index) => {
    const moved = visitors.filter((country) => marketOfPage(arm.path, country) !== marketOfPage(entryPath, country));
    const first = moved[0];
    if (first === undefined) return;
    const label = index === 0 ? "The control arm" : `Arm ${index + 1}`;
    errors.push(
      `${label}: ${arm.path} puts visitors from ${moved.join(", ")} in another market than ${entryPath} does (one from ${first} gets ${marketOfPage(arm.path, first)} instead of ${marketOfPage(entryPath, first)}), so they would see other prices; every arm must sell at the entry's prices.`,
    );
  });
  return errors;
}
