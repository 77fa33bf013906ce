import { sql } from "drizzle-orm";
import { isbot } from "isbot";
import type { Queryable } from "../db/database.server";
import { pageViews } from "./schema";
import { markets, type CountryCode } from "../market/markets";
import { isFunnelStep, type FunnelStep } from "./funnel-steps";
import { srcLength } from "./page-view-beacon";

/**
 * The receiving end of the page-view beacon (decision 17): one count more for the day (UTC), step,
 * market and variant, and nothing else kept: not the address, not the user agent, not the time.
 */

export interface PageView {
  step: FunnelStep;
  market: CountryCode;
  /** The funnel variant, empty when the page had none. */
  src: string;
  /** The host of the site that linked to the visit, when the page had one (its touch, decision 45). */
  referrer?: string;
  /** The path the visit landed on: the first page this document loaded. */
  landingPath?: string;
}

const fields = ["step", "market", "src", "ref", "land"] as const;
/** A host name and a path of ours; anything else in `ref` or `land` is left out, never a reason to refuse the view. */
const hostPattern = /^[a-z0-9.-]{1,253}$/;
const pathPattern = /^\/[A-Za-z0-9/_.-]{0,199}$/;
const srcPattern = new RegExp(`^[A-Za-z0-9_-]{0,${srcLength}}$`);
const marketCodes = new Set<string>(markets.map((market) => market.country));
/** A beacon's body is about 100 bytes; anything much longer is not one. */
const maxBodyBytes = 1024;

/** The view a beacon's body (`step=offer&market=DE&src=v2`) reports, or null for anything else. */
export function parsePageView(body: string): PageView | null {
  const form = new URLSearchParams(body);
  const keys = [...form.keys()];
  if (keys.length !== new Set(keys).size || keys.some((key) => !(fields as readonly string[]).includes(key))) return null;
  const step = form.get("step") ?? "";
  const market = form.get("market") ?? "";
  const src = form.get("src") ?? "";
  if (!isFunnelStep(step) || !marketCodes.has(market) || !srcPattern.test(src)) return null;
  const referrer = (form.get("ref") ?? "").toLowerCase();
  const landingPath = form.get("land") ?? "";
  return { step, market: market as CountryCode, src, ...(hostPattern.test(referrer) ? { referrer } : {}), ...(pathPattern.test(landingPath) ? { landingPath } : {}) };
}

/** A prefetch or prerender the browser (or a proxy) made ahead of a visit that may never happen. */
export function isPrefetchRequest(headers: Headers): boolean {
  const purpose = [headers.get("Sec-Purpose"), headers.get("Purpose"), headers.get("X-Purpose"), headers.get("X-Moz")].join(" ").toLowerCase();
  return /prefetch|prerender|preview/.test(purpose);
}

/** Requests that are not a person looking at the page: crawlers, headless browsers, prefetches. */
function isCountedRequest(headers: Headers): boolean {
  const agent = headers.get("User-Agent") ?? "";
  return agent !== "" && !isbot(agent) && !isPrefetchRequest(headers);
}

/** The UTC day of a moment, as the table keeps it: `2026-11-23`. */
export function utcDay(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/** One view more, atomically (two beacons at once both count, on PostgreSQL as on PGlite). */
async function countPageView(db: Queryable, view: PageView, now = new Date()): Promise<void> {
  await db
    .insert(pageViews)
    .values({ day: utcDay(now), step: view.step, market: view.market, src: view.src, views: 1 })
    .onConflictDoUpdate({
      target: [pageViews.day, pageViews.step, pageViews.market, pageViews.src],
      set: { views: sql`${pageViews.views} + 1` },
    });
}

/** The body up to `limit` bytes, or null when it is longer (read no further than that). */
async function readLimited(request: Request, limit: number): Promise<string | null> {
  if (Number(request.headers.get("Content-Length") ?? 0) > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/**
 * Answers a beacon with its status: 204 whether counted or not (crawlers and prefetches are
 * answered but not counted), 400 for a body that is not a beacon's, 403 from another site's page.
 * A bad request is never an error of ours, so never a 500.
 */
export async function receivePageView(db: Queryable, request: Request, now = new Date(), alsoCount?: (view: PageView) => Promise<void>): Promise<204 | 400 | 403> {
  const site = request.headers.get("Sec-Fetch-Site");
  if (site !== null && site !== "same-origin") return 403;
  if (!isCountedRequest(request.headers)) return 204;
  if (!/^application\/x-www-form-urlencoded\b/i.test(request.headers.get("Content-Type") ?? "")) return 400;
  let body: string | null;
  try {
    body = await readLimited(request, maxBodyBytes);
  } catch {
    return 400;
  }
  const view = body === null ? null : parsePageView(body);
  if (!view) return 400;
  await countPageView(db, view, now);
  await alsoCount?.(view);
  return 204;
}
