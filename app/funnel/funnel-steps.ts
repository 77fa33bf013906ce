import { upsells } from "../../content/funnel/upsells.json";
import { findRouteEntry, type PageKind } from "./route-table";

/**
 * The funnel's steps, in the order a buyer meets them (decision 17). Page views are counted per
 * step, and the funnel report lists them in this order. Shared by the browser (which names the
 * step it shows) and the server (which accepts no other name).
 *
 * Which pages are which step, by the route table's page template:
 *
 * | step        | pages                                                                       |
 * |-------------|-----------------------------------------------------------------------------|
 * | landing     | the home page (`/`, `/:locale`): it leads to an offer (take-2)             |
 * | quiz        | the quiz pages (`/v1` … `/vsalt`, `/v1ip`)                                  |
 * | summary     | the quiz results (`/summary`, `/summarypop`, `/v1ip-summary`)               |
 * | offer       | every page where a bundle is chosen: all offer routes (take, take2, take3  |
 * |             | and the /offer2 advertorial included) and the product pages (/fibergum, /v8, |
 * |             | /hypnotherapy, /hypnotherapyy)                                              |
 * | checkout    | `/checkout`                                                                 |
 * | upsell-N    | an upsell page, N its place in the chain of `content/funnel/upsells.json`: |
 * |             | the page the checkout leads to (no other upsell leads to it) is 1, the one |
 * |             | after it 2, …                                                               |
 * | thank-you   | `/thankyou`, `/offerthanks`                                                 |
 *
 * Not steps, so not counted: terms, refund, feedback, withdraw, a provider's return page (a hop
 * between the provider and the next page), addapp and the not-found page.
 *
 * The take routes and the advertorial are where ads land, but they show the bundles and lead
 * straight to the checkout, and the home page's order button leads to take-2: counted as landing
 * they would count one visit twice at the top and leave the offer step nearly empty.
 */

type UpsellChain = Readonly<Record<string, { readonly next: string }>>;

/** The upsell pages a buyer passes to reach `page`, from the first of its chain: `upsell`, `upsellMind`. */
export function upsellPath(chain: UpsellChain, page: string): string[] {
  const previous = new Map<string, string>();
  for (const [from, { next }] of Object.entries(chain)) if (next in chain) previous.set(next, from);
  const path = [page];
  // Bounded by the chain's length, so that a loop in the content cannot hang the page.
  for (let before = previous.get(page); before !== undefined && path.length <= previous.size; before = previous.get(before)) path.unshift(before);
  return path;
}

/** Each upsell page's place in its chain: 1 for a page no other upsell leads to, then 2, 3, … */
export function upsellPositions(chain: UpsellChain): ReadonlyMap<string, number> {
  return new Map(Object.keys(chain).map((page) => [page, upsellPath(chain, page).length]));
}

export type FunnelStep = "landing" | "quiz" | "summary" | "offer" | "checkout" | `upsell-${number}` | "thank-you";

const positions = upsellPositions(upsells);

function stepList(): readonly FunnelStep[] {
  const upsellSteps = Array.from({ length: Math.max(1, ...positions.values()) }, (_, index): FunnelStep => `upsell-${index + 1}`);
  return ["landing", "quiz", "summary", "offer", "checkout", ...upsellSteps, "thank-you"];
}

// Marked pure so that the browser's build, which only names the step it shows, leaves it out.
export const funnelSteps = /* @__PURE__ */ stepList();

export function isFunnelStep(value: string): value is FunnelStep {
  return (funnelSteps as readonly string[]).includes(value);
}

const stepOfPage: Partial<Record<PageKind, FunnelStep>> = {
  home: "landing",
  quiz: "quiz",
  summary: "summary",
  offer: "offer",
  product: "offer",
  checkout: "checkout",
  "thank-you": "thank-you",
};

/** The upsell step of an upsell page (its plain route name: `upsell`, `upsellMind`, …). */
export function upsellStepOf(page: string): FunnelStep | null {
  const position = positions.get(page);
  return position === undefined ? null : `upsell-${position}`;
}

/** The funnel step a named route shows, or null for pages that are not a step of the funnel. */
export function funnelStepOf(routeName: string): FunnelStep | null {
  const entry = findRouteEntry(routeName);
  if (!entry) return null;
  if (entry.page === "upsell") return upsellStepOf(entry.plainPath.slice(1));
  return stepOfPage[entry.page] ?? null;
}
