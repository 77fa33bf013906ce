/**
 * `npm run bench -- --compare previous.json`: the key figures of two benchmark runs side by side.
 * Reads what each run wrote, older layouts included, and leaves out figures only one run has.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const rows = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

/** Every comparable figure of a run, by a name that stays the same from run to run. */
export function keyFigures(result: unknown): Map<string, number> {
  const figures = new Map<string, number>();
  const put = (name: string, value: unknown) => {
    const n = num(value);
    if (n !== undefined) figures.set(name, n);
  };
  if (!isObject(result)) return figures;
  for (const page of rows(result.pages)) {
    put(`JS KB gz: ${String(page.type)}`, page.firstLoadJsKB);
    put(`scripts loaded KB gz: ${String(page.type)}`, page.scriptsLoadedKB);
    put(`document KB br: ${String(page.type)}`, page.documentBrotliKB);
    put(`performance: ${String(page.type)}`, page.performance);
    put(`TBT ms: ${String(page.type)}`, page.tbtMs);
    put(`LCP ms: ${String(page.type)}`, page.lcpMs);
  }
  const load = isObject(result.loadTest) ? result.loadTest : {};
  for (const row of rows(load.load)) {
    put(`req/s: ${String(row.target)} @${String(row.connections)}`, row.requestsPerSecond);
    put(`p99 ms: ${String(row.target)} @${String(row.connections)}`, row.p99Ms);
  }
  // Runs before the load matrix measured two pages at 20 connections.
  if (isObject(load.prerendered)) put("req/s: prerendered, browser @20", load.prerendered.requestsPerSecond);
  if (isObject(load.perRequest)) put("req/s: geo page (FR), browser @20", load.perRequest.requestsPerSecond);
  if (isObject(load.orders)) put("orders/s: PGlite", load.orders.ordersPerSecond);
  if (isObject(load.ordersOnPostgres)) put("orders/s: PostgreSQL", load.ordersOnPostgres.ordersPerSecond);
  if (isObject(load.upsellAccept)) put("upsell accept p50 ms", load.upsellAccept.p50Ms);
  put("server peak memory MB", load.serverPeakMemoryMB);
  if (isObject(load.backOfficeOnPostgres)) {
    for (const row of rows(load.backOfficeOnPostgres.pages)) {
      put(`back office p50 ms: ${String(row.page)}`, row.p50Ms);
      put(`back office p99 ms: ${String(row.page)}`, row.p99Ms);
    }
  }
  // The checkout without a code and with one applied (runs before codes have none).
  const codes = isObject(result.checkoutWithCode) ? result.checkoutWithCode : {};
  for (const row of rows(codes.times)) {
    put(`checkout p50 ms: ${String(row.request)}, ${String(row.code)} code`, row.p50Ms);
    put(`checkout p99 ms: ${String(row.request)}, ${String(row.code)} code`, row.p99Ms);
  }
  for (const row of rows(codes.load)) put(`req/s: ${String(row.request)}, ${String(row.code)} code @${String(row.connections)}`, row.requestsPerSecond);
  return figures;
}

export function compareWithPrevious(previous: unknown, current: unknown): { figure: string; before: number; after: number; change: string }[] {
  const before = keyFigures(previous);
  const after = keyFigures(current);
  return [...after].flatMap(([figure, value]) => {
    const old = before.get(figure);
    if (old === undefined) return [];
    const change = old === 0 ? "" : `${value >= old ? "+" : ""}${(((value - old) / old) * 100).toFixed(0)} %`;
    return [{ figure, before: old, after: value, change }];
  });
}
