import { randomUUID } from "node:crypto";
import { isbot } from "isbot";
import { cookieValue, hasConsent } from "../platform/cookies";
import { marketForRouteValue, type CountryCode } from "../market/markets";
import { marketOfPage, parseXp, splitLocale, withLocale, xpValue } from "./experiment-model";
import type { LiveExperiment, LiveExperiments } from "./experiments.server";
import { newExposureToken, readExposureToken } from "./exposure-token.server";
import { bucketRanges, chooseArm, growthBookHash } from "./hash";

/**
 * Assignment on the server, before any HTML (docs/decisions/0028-split-tests.md). A request for
 * the entry path of a running test is sent to its arm's path carrying `xp=<key>.<arm>.<token>`,
 * the token naming this one exposure (0035-exposure-tokens.md): answered there in place when the
 * server keeps every arm's page, else by a redirect. Every arm, the control too, goes the same way,
 * so no arm is a round trip faster. A request that
 * already carries an `xp` of any live test is served its page as it is (whether its token holds
 * decides only whether its order counts); a redirect without an `xp` never lands on another live
 * test's entry, so no two tests can send a request round in a circle (0032). Crawlers and `HEAD`
 * requests get the control's page and are not counted.
 * Nothing is stored on the device before analytics consent; after it, a first-party cookie keeps
 * the arm and its token across visits; a cookie whose token is not valid counts as none.
 */

/** The arms a consenting visitor is in: `key.arm.token` values joined by `~`. */
export const armCookieName = "vitanor_xp";
const armCookieMaxAge = 90 * 86_400;

export interface EntryRequest {
  method: string;
  /** The path as requested. */
  pathname: string;
  /** The raw query with its `?`, or empty. */
  search: string;
  header(name: string): string | undefined;
  /** The market of a path without a locale, from the geo headers (asked only when needed). */
  geoMarket(): string;
  /** Whether cookies set in answer must be `Secure`. */
  secure: boolean;
}

export interface Redirect {
  location: string;
  cookies: string[];
  /**
   * When the location is an arm's page carrying its `xp`, every arm's path with this request's
   * locale and query: the server may answer the arm's page at the requested address instead of
   * redirecting, when it keeps each of these pages (docs/decisions/0028-split-tests.md). Empty for
   * a redirect without an `xp` (a shipped test's, a crawler's), which always goes by a redirect.
   */
  armLocations: string[];
}

export type Decision =
  | { kind: "pass" }
  | { kind: "redirect"; redirect: Redirect; exposure: { key: string; arm: number; market: string } | null };

const pass: Decision = { kind: "pass" };

/** Whether the request is a person's visit: not a crawler, not a prefetch or prerender ahead of one. */
function isCountedVisit(header: (name: string) => string | undefined): boolean {
  const agent = header("user-agent") ?? "";
  const purpose = [header("sec-purpose"), header("purpose"), header("x-purpose"), header("x-moz")].join(" ").toLowerCase();
  return agent !== "" && !isbot(agent) && !/prefetch|prerender|preview/.test(purpose);
}

/** The query with `xp` set (or removed when null), every other parameter kept in its place. */
function searchWith(search: string, xp: string | null): string {
  const params = new URLSearchParams(search);
  params.delete("xp");
  if (xp) params.append("xp", xp);
  const text = params.toString();
  return text ? `?${text}` : "";
}

function cookie(value: string | null, secure: boolean): string {
  const attributes = ["Path=/", "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  return value === null ? [`${armCookieName}=`, "Max-Age=0", ...attributes].join("; ") : [`${armCookieName}=${value}`, `Max-Age=${armCookieMaxAge}`, ...attributes].join("; ");
}

/** The arm a GrowthBook hash of the id gives, by the experiment's weights. */
function armFor(experiment: Pick<LiveExperiment, "key" | "arms">, id: string): number {
  const weights = experiment.arms.map((arm) => arm.weight / 100);
  const arm = chooseArm(growthBookHash(experiment.key, id, 2) ?? 0, bucketRanges(weights.length, 1, weights));
  return arm === -1 ? 0 : arm;
}

/**
 * What to do with a page request, given the live experiments; `newId` makes the random id hashed,
 * and the store's signing key signs the exposure's token.
 */
export function decide(request: EntryRequest, live: LiveExperiments, newId: () => string = randomUUID, signingKey: string, now = Date.now()): Decision {
  if (live.size === 0 || (request.method !== "GET" && request.method !== "HEAD")) return pass;
  const { path, locale } = splitLocale(request.pathname);
  const experiment = live.get(path);
  if (!experiment) return pass;
  const market = locale ? (marketForRouteValue(locale)?.country ?? "") : null;
  const marketOf = () => market ?? request.geoMarket();
  // Counted in the market the arm's page shows, the one its orders will have.
  const exposureMarket = (arm: number) => marketOfPage(experiment.arms[arm]?.path ?? experiment.entryPath, marketOf() as CountryCode);
  if (experiment.market && marketOf() !== experiment.market) return pass;
  const params = new URLSearchParams(request.search);
  const carried = parseXp(params.get("xp"));
  const entryPath = path;
  const goTo = (arm: number, xp: string | null, cookies: string[] = []): Decision => {
    const target = withLocale(experiment.arms[arm]?.path ?? experiment.entryPath, locale);
    // The control's own page, without an arm to carry, is served as it is.
    if (xp === null && target.toLowerCase() === withLocale(entryPath, locale)) return pass;
    // A redirect without an xp (a shipped test's, a crawler's or a HEAD's) leaves nothing on the
    // next request to stop another test from redirecting it again, so it never lands on another
    // live test's entry: the entry is served as it is instead. Each such redirect then ends on a page
    // no test redirects, so no pair of stored tests can send a request round in a circle, whatever
    // the back office let through when they were saved.
    if (xp === null && live.has(splitLocale(target).path)) return pass;
    const search = searchWith(request.search, xp);
    const armLocations = xp === null ? [] : experiment.arms.map((other) => `${withLocale(other.path, locale)}${search}`);
    return { kind: "redirect", redirect: { location: `${target}${search}`, cookies, armLocations }, exposure: null };
  };

  // A request a live test has sent here already is never sent on again: two tests pointing at each
  // other's entry cannot send a visitor round in a circle.
  // (A shipped test's one valid arm is the shipped one: an older link into another arm goes to it.)
  const sentByLiveTest = (test: LiveExperiment) => carried !== null && test.key === carried.key && (test.status === "shipped" ? carried.arm === test.shippedArm : carried.arm < test.arms.length);
  if ([...live.values()].some(sentByLiveTest)) return pass;
  if (experiment.status === "shipped") return goTo(experiment.shippedArm ?? 0, null);
  // A HEAD asks what the page is without a visitor to look at it: the control, not counted.
  if (request.method === "HEAD" || !isCountedVisit(request.header)) return goTo(0, null);

  const cookieHeader = request.header("cookie");
  const consented = hasConsent(cookieHeader);
  const kept = (cookieValue(cookieHeader, armCookieName) ?? "").split("~").map(parseXp).filter((value) => value !== null);
  const known = consented ? kept.find((value) => value.key === experiment.key && value.arm < experiment.arms.length) : undefined;
  // A returning visitor keeps the exposure of the cookie: it is one visitor, and one order counts for it.
  if (known?.token && readExposureToken(signingKey, experiment.key, known.arm, known.token)) return goTo(known.arm, xpValue(experiment.key, known.arm, known.token));
  // A cookie without a valid token is no cookie: anyone can write one, and keeping its arm would let
  // a hand-made cookie choose the arm and count an exposure on every request.
  const arm = armFor(experiment, newId());
  const xp = xpValue(experiment.key, arm, newExposureToken(signingKey, experiment.key, arm, now));
  let cookies: string[] = [];
  if (consented) {
    const others = kept.filter((value) => value.key !== experiment.key).map((value) => xpValue(value.key, value.arm, value.token));
    cookies = [cookie([...others.slice(-7), xp].join("~"), request.secure)];
  } else if (kept.length > 0 || cookieValue(cookieHeader, armCookieName) !== null) {
    // Consent withdrawn: the arm cookie goes with it.
    cookies = [cookie(null, request.secure)];
  }
  const decision = goTo(arm, xp, cookies);
  return decision.kind === "redirect" ? { ...decision, exposure: { key: experiment.key, arm, market: exposureMarket(arm) } } : decision;
}
