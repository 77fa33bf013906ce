/**
 * Which of the storefront's routes a path belongs to, from the server build's route manifest: the
 * route's id (its name, `checkout-2`), its whole pattern (`/checkout/:locale`) and whether it takes
 * posts. The limits choose by it, the request log writes the pattern instead of the path.
 */

/** The part of a server build's route manifest read here. */
export interface ManifestRoute {
  id: string;
  parentId?: string | undefined;
  path?: string | undefined;
  index?: boolean | undefined;
  caseSensitive?: boolean | undefined;
  module: { action?: unknown };
}

export interface MatchedRoute {
  id: string;
  pattern: string;
  hasAction: boolean;
}

interface CompiledRoute extends MatchedRoute {
  segments: string[];
  caseSensitive: boolean;
  score: number;
}

function fullPath(route: ManifestRoute, routes: Record<string, ManifestRoute | undefined>): string {
  const parts: string[] = [];
  for (let current: ManifestRoute | undefined = route; current; current = current.parentId ? routes[current.parentId] : undefined) {
    if (current.path) parts.unshift(current.path);
  }
  return `/${parts.join("/")}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
}

/** React Router's ranking, simplified to what the manifest holds: static beats dynamic beats splat. */
function scoreOf(segments: string[]): number {
  return segments.reduce((score, segment) => score + (segment === "*" ? -2 : segment.startsWith(":") ? 3 : 10), segments.length);
}

function matches(route: CompiledRoute, segments: string[]): boolean {
  const splat = route.segments.at(-1) === "*";
  const fixed = splat ? route.segments.length - 1 : route.segments.length;
  if (splat ? segments.length < fixed : segments.length !== fixed) return false;
  for (let i = 0; i < fixed; i++) {
    const expected = route.segments[i] as string;
    const given = segments[i] as string;
    if (expected.startsWith(":")) continue;
    if (route.caseSensitive ? expected !== given : expected.toLowerCase() !== given.toLowerCase()) return false;
  }
  return true;
}

/**
 * A data request of single fetch (`/checkout/fr.data`, `/_root.data` for `/`) belongs to the
 * page it loads or posts to.
 */
export function pagePathOf(pathname: string): { path: string; data: boolean } {
  if (!pathname.endsWith(".data")) return { path: pathname, data: false };
  const path = pathname.slice(0, -".data".length);
  return { path: path === "/_root" ? "/" : path, data: true };
}

export function createRouteMatcher(manifest: Record<string, ManifestRoute | undefined>): (pathname: string) => MatchedRoute | null {
  const compiled: CompiledRoute[] = [];
  // Only leaves are pages: the root and the layouts wrap them.
  const parents = new Set(Object.values(manifest).map((route) => route?.parentId));
  for (const route of Object.values(manifest)) {
    if (!route || parents.has(route.id) || (route.path === undefined && !route.index)) continue;
    const pattern = fullPath(route, manifest);
    const segments = pattern.split("/").filter(Boolean);
    compiled.push({ id: route.id, pattern, hasAction: Boolean(route.module.action), segments, caseSensitive: Boolean(route.caseSensitive), score: scoreOf(segments) });
  }
  compiled.sort((a, b) => b.score - a.score);
  return (pathname) => {
    const segments = pathname.split("/").filter(Boolean);
    return compiled.find((route) => matches(route, segments)) ?? null;
  };
}

/**
 * Anything shaped like an order number (`VN-7K3M-Q9XD`, in any case, with or without its dashes),
 * whatever its characters: some numbers are letters only and would pass for a plain word.
 */
const orderNumberLike = /^vn-?[a-z0-9]{4}-?[a-z0-9]{4}$/i;
const plainWord = /^[A-Za-z][A-Za-z_-]{0,39}(\.[a-z0-9]{1,8})?$/;

/**
 * A path with whatever could identify a person or an order replaced: an order number becomes
 * `:number`, each other segment that is not a plain word `:id`.
 */
export function normalisedPath(pathname: string): string {
  const segments = pathname.split("/").filter(Boolean);
  return `/${segments.map((segment) => (orderNumberLike.test(segment) ? ":number" : plainWord.test(segment) ? segment : ":id")).join("/")}`;
}

/**
 * The pattern a request is logged under: a route's, a fixed prefix's, or `*` for an address nobody
 * serves. The back office is its own router: its paths (`/admin/orders/:number`, from the server
 * build) name its routes, and a back-office address none of them matches is `/admin/*`, so that a
 * hand-typed order number, an e-mail address or anything else in it is never written as typed.
 */
export function routeForLog(match: (pathname: string) => MatchedRoute | null, backOfficePaths: readonly string[] = []) {
  const backOffice = createRouteMatcher(Object.fromEntries(["/admin", ...backOfficePaths].map((path) => [path, { id: path, path, module: {} }])));
  return (pathname: string, status: number): string => {
    if (pathname.startsWith("/assets/")) return "/assets/*";
    if (pathname.startsWith("/builds/")) return "/builds/*";
    if (pathname === "/admin" || pathname.startsWith("/admin/")) return backOffice(pathname)?.pattern ?? "/admin/*";
    const { path, data } = pagePathOf(pathname);
    const lastSegment = path.split("/").at(-1) ?? "";
    // A file (pages have no dot in their address) or the server's own `/healthz`: no route of the app.
    const route = lastSegment.includes(".") || path === "/healthz" ? null : match(path);
    if (route && route.pattern !== "/*") return `${route.pattern}${data ? ".data" : ""}`;
    return status < 400 ? normalisedPath(pathname) : "*";
  };
}
