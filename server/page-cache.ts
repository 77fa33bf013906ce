/**
 * The cache of pages that are rendered per request only because they depend on the visitor's
 * country (docs/decisions/0018-serving-compressed-and-cached-pages.md): routes without a locale, rendered once per path, geo market and query,
 * kept in memory with a byte budget, least recently used first out. A split test's arm page with a
 * locale is kept here too, to be answered at the test's entry with each visitor's token (decision 28).
 */

/**
 * Routes whose page is the same for every visitor of one market: the home page, the offer and
 * take routes, the quizzes and their summaries, the product pages, the upsells (the server
 * renders a buyer's own upsell when the order cookie is there), the terms and the app page.
 * Never cached: the checkout, the thank-you pages, a payment provider's return page, the refund,
 * feedback and withdrawal forms, the back office, the test gateway, and any route not listed here.
 */
export const cacheableRouteNames: ReadonlySet<string> = new Set([
  "index",
  "1get",
  "6offer",
  "buy",
  "get",
  "offer",
  "offer2month5",
  "offerback",
  "offerbuy",
  "offercoll",
  "offerexitpop",
  "offerg",
  "offericons",
  "offerrecom",
  "offersalt",
  "offerup",
  "offerV4",
  "offerV7",
  "v8offer",
  "take",
  "take3",
  "offera",
  "offerip",
  "offer2",
  "take2",
  "lionoffer",
  "collagen-upsell",
  "detolex-upsell",
  "upsell",
  "upsellfat",
  "upsellMind",
  "fibergum",
  "hypnotherapy",
  "hypnotherapyy",
  "v8",
  "terms",
  "addapp",
  "summary",
  "summarypop",
  "v1ip-summary",
  "v1",
  "v1ip",
  "v2",
  "v3",
  "v31",
  "v4",
  "v5",
  "v6",
  "v7",
  "v9",
  "v10",
  "vsalt",
]);

/**
 * Query parameters many visitors share, which the funnel carries from page to page (links keep
 * the whole query, so every parameter is part of the page): the variant (`src`), the split
 * test's arm (`xp`), the summary's `step`, the chosen `bundle` and the campaign tags. Anything else (click ids unique to one
 * visit, an e-mail address) makes the page render for that request alone, as before.
 */
export const cacheableQueryParameters: ReadonlySet<string> = new Set([
  "src",
  "xp",
  "step",
  "bundle",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "utm_id",
]);
export const maxCacheableQueryLength = 256;

/**
 * A split test's `xp` carries a token unique to one visit (`key.arm.token`, docs/decisions/
 * 0035-exposure-tokens.md). The page is the same for every visitor of an arm except for that
 * token, which every link carries (a click before hydration too, or the order would lose its arm),
 * so an arm's page is rendered and kept once with this stand-in of the token's format, and each
 * answer puts the visitor's own token in its place (`forVisitor`), or takes it out when there is
 * none. Nobody's token is ever stored, so none can reach another visitor's page.
 */
export const standInToken = "0StandInForEachVisitorsOwnToken00000";
const exposureXp = /([?&]xp=[a-z0-9]{8}\.[0-3])(?:\.([A-Za-z0-9_-]{36}))?(?=&|$)/;

/**
 * The query a cached page is kept and rendered under (the one sent, its `xp` token replaced by
 * the stand-in) and the token to put back in the answer: the visitor's own, or "" when the `xp`
 * has none. `token` is null when the query has no split test's `xp`: the page is served as kept.
 */
export function cachedSearch(search: string): { search: string; token: string | null } {
  const found = exposureXp.exec(search);
  if (!found) return { search, token: null };
  return { search: search.replace(exposureXp, `$1.${standInToken}`), token: found[2] ?? "" };
}

/** The stand-in as it stands in a kept page: the `.` before a token and the token. */
export const standInMarker = Buffer.from(`.${standInToken}`);

/** A header of an answer rendered with the stand-in (a redirect's `Location`) as one visitor gets it. */
export function headerForVisitor(value: string, token: string): string {
  return value.replaceAll(`.${standInToken}`, token === "" ? "" : `.${token}`);
}

/**
 * A kept page (HTML, or a data response) as one visitor is answered: every occurrence of the
 * stand-in (links, forms, the hydration data) carries the visitor's own token, or none. Both are
 * plain base64url, which HTML, JSON and URLs all keep as they are.
 */
export function forVisitor(body: Buffer, token: string): Buffer {
  const replacement = token === "" ? Buffer.alloc(0) : Buffer.from(`.${token}`);
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(standInMarker); at !== -1; at = body.indexOf(standInMarker, from)) {
    pieces.push(body.subarray(from, at), replacement);
    from = at + standInMarker.length;
  }
  if (from === 0) return body;
  pieces.push(body.subarray(from));
  return Buffer.concat(pieces);
}

/** Whether a raw query string (`?src=v2`, or empty) may be part of a cache key. */
export function cacheableQuery(search: string, isData: boolean): boolean {
  if (search.length > maxCacheableQueryLength) return false;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(search);
  } catch {
    return false;
  }
  for (const [name, value] of params) {
    // React Router's data requests name the routes whose data they want.
    const known = cacheableQueryParameters.has(name) || (isData && name === "_routes");
    if (!known || value.includes("@")) return false;
  }
  return true;
}

export interface PageKeyParts {
  /** The path as requested (not decoded, case kept: the canonical link repeats it). */
  path: string;
  /** The market country the geo header resolves to (all unknown countries share one). */
  geo: string;
  /** The raw query string, `?` included, in the order sent (the page repeats it as is). */
  search: string;
}

/** Everything a cached page is a function of, besides the build and the day (the generation). */
export function pageCacheKey({ path, geo, search }: PageKeyParts): { key: string; page: string } {
  // Raw request targets never contain a line feed.
  const page = `${geo}\n${path}`;
  return { key: `${page}\n${search}`, page };
}

/**
 * Entries are valid for one build and one UTC day: prices and their savings are those of the
 * day (`content/catalog/products.json` has dated prices), and the content is in the build.
 */
export function cacheGeneration(buildId: string, now: Date): string {
  return `${buildId}\n${now.toISOString().slice(0, 10)}`;
}

/** Bookkeeping per entry besides its bodies: key, headers, objects. */
const entryOverhead = 1024;

interface Slot<V> {
  value: V;
  page: string;
  cost: number;
}

export interface PageCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

/**
 * A least-recently-used map bounded by bytes. Each page (path and market) keeps at most
 * `maxVariantsPerPage` query variants, so a flood of queries on one page only turns over that
 * page's own entries. An entry larger than half the budget is not kept.
 */
export class PageCache<V extends { bytes: number }> {
  private readonly slots = new Map<string, Slot<V>>();
  private readonly variants = new Map<string, number>();
  private generation = "";
  private used = 0;
  private counts = { hits: 0, misses: 0, evictions: 0 };

  constructor(
    readonly maxBytes: number,
    readonly maxVariantsPerPage = 16,
  ) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** The entry for a key of this generation; a new generation empties the cache first. */
  get(generation: string, key: string): V | undefined {
    if (generation !== this.generation) {
      this.clear();
      this.generation = generation;
    }
    const slot = this.slots.get(key);
    if (!slot) {
      this.counts.misses++;
      return undefined;
    }
    this.counts.hits++;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Keeps an entry; refused (false) when too large or made for a generation that has passed. */
  set(generation: string, key: string, page: string, value: V): boolean {
    const cost = value.bytes + key.length * 2 + entryOverhead;
    if (this.generation === "") this.generation = generation;
    if (generation !== this.generation || cost > this.maxBytes / 2) return false;
    this.delete(key);
    if ((this.variants.get(page) ?? 0) >= this.maxVariantsPerPage) {
      for (const [oldKey, slot] of this.slots) {
        if (slot.page === page) {
          this.evict(oldKey);
          break;
        }
      }
    }
    this.slots.set(key, { value, page, cost });
    this.variants.set(page, (this.variants.get(page) ?? 0) + 1);
    this.used += cost;
    for (const oldKey of this.slots.keys()) {
      if (this.used <= this.maxBytes) break;
      this.evict(oldKey);
    }
    return true;
  }

  /** Puts a better version of an entry (smaller twins) in its place, if it is still there. */
  replace(generation: string, key: string, current: V, value: V): boolean {
    const slot = this.slots.get(key);
    if (generation !== this.generation || slot?.value !== current) return false;
    const cost = value.bytes + key.length * 2 + entryOverhead;
    this.used += cost - slot.cost;
    slot.value = value;
    slot.cost = cost;
    for (const oldKey of this.slots.keys()) {
      if (this.used <= this.maxBytes) break;
      this.evict(oldKey);
    }
    return true;
  }

  clear(): void {
    this.slots.clear();
    this.variants.clear();
    this.used = 0;
  }

  stats(): PageCacheStats {
    return { entries: this.slots.size, bytes: this.used, ...this.counts };
  }

  private evict(key: string): void {
    if (this.delete(key)) this.counts.evictions++;
  }

  private delete(key: string): boolean {
    const slot = this.slots.get(key);
    if (!slot) return false;
    this.slots.delete(key);
    this.used -= slot.cost;
    const left = (this.variants.get(slot.page) ?? 1) - 1;
    if (left > 0) this.variants.set(slot.page, left);
    else this.variants.delete(slot.page);
    return true;
  }
}
