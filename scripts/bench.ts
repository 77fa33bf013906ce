/**
 * `npm run bench`: builds, serves and measures each page type against the performance budget
 * (docs/decisions/0043-what-waits-for-the-page.md, "The budget"): first-load compressed
 * JavaScript and the document's Brotli size, Lighthouse 12 (mobile preset, median of three runs)
 * with total bytes, LCP, TBT and CLS; load on loopback as browsers ask (`Accept-Encoding: gzip,
 * br`) at 10 and 50 connections for a prerendered page (also uncompressed, for the ratio), geo
 * pages with a warm cache and the checkout; orders per second with ten buyers paying at once (on
 * the embedded database, and on PostgreSQL when `BENCH_DATABASE_URL` names one, which also times
 * the back office with 10,000 orders); the upsell accept time; the server's peak memory; and the
 * checkout's server time without a discount code next to with one applied, for the POST that
 * quotes and for a paid order, with the quoting POST's requests per second at 10 connections
 * (scripts/bench-codes.ts, under `checkoutWithCode`, in `--quick` runs too). Prints tables, writes
 * `bench-results/bench.json`, compares with the previous run (or `--compare file.json`) and says
 * which budgets hold. Figures, never test assertions. `--no-build` reuses the current build;
 * `--quick` skips Lighthouse and the load test (not the code's figures); `--experiments` measures
 * only what a split test's assignment adds to an entry, against its budget of 2 ms at p99, and
 * writes `bench-results/bench-experiments.json` (scripts/bench-experiments.ts). `--attribution`
 * times only the attribution report's query over 100,000 orders (on PostgreSQL with
 * `BENCH_DATABASE_URL`, else PGlite; scripts/bench-attribution.ts), also part of a whole run, and
 * writes `bench-results/attribution.json`. `--downloads`
 * measures digital delivery alone (a 50 MB file through the store from the filesystem and from S3,
 * and the server's memory with 20 downloads at once) and writes `bench-results/downloads.json`.
 * Each page's scripts are also counted the way a browser loads them (scripts/bench-scripts-loaded.ts:
 * deferred parts included, prefetches not), against the same budget on the landing page.
 * `--pages offer,quiz` measures only those page types, Lighthouse included, without the load test,
 * and writes `bench-results/bench-pages.json` (three Lighthouse runs a page take minutes; on a busy
 * machine a whole run would mostly measure the other processes).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { chromiumPath } from "../tests/e2e/support/chromium";
import { startServer, type RunningServer } from "../tests/e2e/support/server";
import { attributionBench } from "./bench-attribution";
import { backOfficeOnPostgres } from "./bench-back-office";
import { codeCheckoutTimes, sideBySide } from "./bench-codes";
import { assignmentCost } from "./bench-experiments";
import { downloadBench } from "./bench-downloads";
import { compareWithPrevious } from "./bench-compare";
import { loadMatrix, loadRatios, rawAnswer } from "./bench-load";
import { benchServerEnv, orderLoad, upsellAcceptTimes } from "./bench-orders";
import { scriptsLoaded } from "./bench-scripts-loaded";

const root = new URL("..", import.meta.url).pathname;
const clientDir = join(root, "build", "client");
const { values: options } = parseArgs({
  options: { "no-build": { type: "boolean", default: false }, quick: { type: "boolean", default: false }, experiments: { type: "boolean", default: false }, attribution: { type: "boolean", default: false }, downloads: { type: "boolean", default: false }, compare: { type: "string" }, pages: { type: "string" } },
});
const resultsFile = join(root, "bench-results", options.pages ? "bench-pages.json" : "bench.json");
// The previous run to compare with: the one named, or the last one written here.
const previousFile = options.compare ?? (existsSync(resultsFile) ? resultsFile : undefined);
const previous = previousFile ? (JSON.parse(readFileSync(previousFile, "utf8")) as unknown) : undefined;

const pageTypes: Record<string, string> = {
  landing: "/fr",
  quiz: "/v1/fr",
  summary: "/summary/fr",
  offer: "/offer/fr",
  upsell: "/upsell/fr",
  "thank-you": "/thankyou/fr",
  checkout: "/checkout/fr?bundle=shape-3",
};

/** The page types `--pages` names, or every one. */
function chosenPageTypes(names: string | undefined): [string, string][] {
  if (names === undefined) return Object.entries(pageTypes);
  return names.split(",").map((name) => {
    const path = pageTypes[name.trim()];
    if (!path) throw new Error(`--pages: no page type "${name}" (known: ${Object.keys(pageTypes).join(", ")})`);
    return [name.trim(), path];
  });
}

const budget = { jsKB: 125, performance: 98, accessibility: 100, bestPractices: 100, seo: 95, cls: 0.02 };
/** Where the budget also holds for every script a browser loads, deferred parts included: the landing page, where most visits start. */
const everyScriptCounted = new Set(["landing"]);

function build(): number {
  const started = performance.now();
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error("The build failed");
  return (performance.now() - started) / 1000;
}

function countPrerenderedPages(): number {
  return readdirSync(clientDir, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith("index.html")).length;
}

/** The modules a file imports statically (`import"./x.js"`, `from"./x.js"`), resolved to asset paths. */
function staticImports(asset: string): string[] {
  const code = readFileSync(join(clientDir, asset), "utf8");
  const found = [...code.matchAll(/(?:from|import)\s*["']([^"']+\.js)["']/g)].map((match) => match[1] as string);
  return found.map((specifier) => new URL(specifier, `http://x${asset}`).pathname);
}

/**
 * Every script a first visit loads: the modules the document names (its module script imports
 * and any hints) and, transitively, everything they import statically.
 */
function firstLoadJsKB(html: string): number {
  const pending = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.js)"|(?:import\(|import\s*|from\s*)"(\/assets\/[^"]+\.js)"/g)].map(
    (match) => (match[1] ?? match[2]) as string,
  );
  const scripts = new Set<string>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (scripts.has(next)) continue;
    scripts.add(next);
    pending.push(...staticImports(next));
  }
  const bytes = [...scripts].reduce((sum, script) => sum + gzipSync(readFileSync(join(clientDir, script))).length, 0);
  return +(bytes / 1024).toFixed(1);
}

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  totalKB: number;
}

async function lighthouseMedian(url: string, port: number, runs = 3): Promise<LighthouseFigures> {
  const results = [];
  // A run that saw no first paint (a hiccup of the headless browser) is repeated, twice at most.
  for (let attempt = 0; results.length < runs && attempt < runs + 2; attempt += 1) {
    const result = await lighthouse(url, { port, output: "json", logLevel: "error" });
    if (result?.lhr.audits["first-contentful-paint"]?.numericValue !== undefined) results.push(result.lhr);
  }
  if (results.length < runs) throw new Error(`Lighthouse could not measure ${url} ${runs} times`);
  const lhr = computeMedianRun(results);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    lcpMs: Math.round(audit("largest-contentful-paint")),
    tbtMs: Math.round(audit("total-blocking-time")),
    cls: +audit("cumulative-layout-shift").toFixed(3),
    totalKB: +(audit("total-byte-weight") / 1024).toFixed(1),
  };
}

function peakMemoryMB(server: RunningServer): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, "utf8");
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN);
  return +(kb / 1024).toFixed(1);
}

/** The same order load against a server on PostgreSQL, when one is named for the benchmark. */
async function ordersOnPostgres() {
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) return null;
  const postgresServer = await startServer({ DATABASE_URL: url, ...benchServerEnv });
  try {
    return { database: "PostgreSQL", ...(await orderLoad(postgresServer.url)) };
  } finally {
    await postgresServer.stop();
  }
}

if (options.attribution) {
  const figures = await attributionBench();
  console.table([figures]);
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "attribution.json"), `${JSON.stringify(figures, null, 2)}\n`);
  process.exit(0);
}
const buildSeconds = options["no-build"] ? null : +build().toFixed(1);
if (options.experiments) {
  const cost = await assignmentCost();
  console.table(cost.pairs);
  console.log(`load average before ${cost.loadAverageBefore.join(", ")}, after ${cost.loadAverageAfter.join(", ")}`);
  console.log(
    cost.misses.length === 0
      ? `The split test's budget holds: the assignment adds less than ${cost.budget.addedP99Ms} ms at p99 (docs/decisions/0035-exposure-tokens.md).`
      : `Budget missed:\n  ${cost.misses.join("\n  ")}`,
  );
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "bench-experiments.json"), `${JSON.stringify(cost, null, 2)}\n`);
  process.exit(0);
}
if (options.downloads) {
  const figures = await downloadBench();
  console.table(figures);
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "downloads.json"), `${JSON.stringify(figures, null, 2)}\n`);
  process.exit(0);
}
const server = await startServer(benchServerEnv);
const chrome = options.quick
  ? undefined
  : await chromeLauncher.launch({
      chromePath: chromiumPath(),
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    });
try {
  const pages = [];
  for (const [type, path] of chosenPageTypes(options.pages)) {
    const html = await (await fetch(server.url + path)).text();
    const documentBrotliKB = +((await rawAnswer(server.url + path, { "Accept-Encoding": "br" })).bytes / 1024).toFixed(1);
    const row = { type, path, firstLoadJsKB: firstLoadJsKB(html), documentBrotliKB };
    // A page Lighthouse cannot measure (a busy machine) is reported as such; the other pages still are.
    const audit = chrome ? await lighthouseMedian(server.url + path, chrome.port).catch((error: Error) => ({ lighthouseError: error.message })) : {};
    pages.push({ ...row, ...audit });
  }
  // Counted in a browser of its own after Lighthouse, so that neither run slows the other.
  const loaded = await scriptsLoaded(new URL(server.url).origin, pages.map((page) => page.path));
  for (const [index, count] of loaded.entries()) Object.assign(pages[index] as object, { scriptsLoadedKB: count.totalKB });
  const loadTest =
    options.quick || options.pages
      ? null
      : {
          load: await loadMatrix(server.url),
          orders: { database: "embedded (PGlite)", ...(await orderLoad(server.url)) },
          upsellAccept: await upsellAcceptTimes(server.url),
          serverPeakMemoryMB: peakMemoryMB(server),
          ordersOnPostgres: await ordersOnPostgres(),
          backOfficeOnPostgres: await backOfficeOnPostgres(),
          attributionReport: await attributionBench(),
        };
  const checkoutWithCode = options.pages ? null : await codeCheckoutTimes();
  const result = { buildSeconds, prerenderedPages: countPrerenderedPages(), budget, pages, scriptsLoaded: loaded, loadTest, checkoutWithCode };

  console.log(`build: ${buildSeconds ?? "skipped"} s, prerendered pages: ${result.prerenderedPages}`);
  console.table(pages);
  if (loadTest) console.table(loadTest.load);
  if (loadTest) console.log("ratios:", loadRatios(loadTest.load));
  if (loadTest) console.table([loadTest.orders, loadTest.ordersOnPostgres].filter(Boolean));
  if (loadTest) console.log(`upsell accept, click to next page: p50 ${loadTest.upsellAccept.p50Ms} ms, p99 ${loadTest.upsellAccept.p99Ms} ms over ${loadTest.upsellAccept.accepts} accepts (${loadTest.upsellAccept.failures} failed)`);
  if (loadTest) console.log(`server peak memory: ${loadTest.serverPeakMemoryMB} MB`);
  if (loadTest?.backOfficeOnPostgres) {
    console.log(`back office on PostgreSQL with ${loadTest.backOfficeOnPostgres.orders} orders, server time per page:`);
    console.table(loadTest.backOfficeOnPostgres.pages);
  }
  if (loadTest) {
    console.log(`the attribution report's query for 30 days over ${loadTest.attributionReport.orders} orders on ${loadTest.attributionReport.database}:`);
    console.table([loadTest.attributionReport]);
  }
  if (checkoutWithCode) {
    console.log(`checkout without a code and with ${checkoutWithCode.code} applied, ${checkoutWithCode.path}, server time per request, one after another:`);
    console.table(checkoutWithCode.times);
    console.table(sideBySide(checkoutWithCode));
    console.log("the checkout's quoting POSTs under load, without and with the code:");
    console.table(checkoutWithCode.load);
  }
  const misses = pages.flatMap((page) => {
    const lh = page as Partial<LighthouseFigures> & { scriptsLoadedKB?: number } & typeof page;
    return [
      page.firstLoadJsKB > budget.jsKB && `${page.type}: ${page.firstLoadJsKB} KB JavaScript > ${budget.jsKB}`,
      everyScriptCounted.has(page.type) && lh.scriptsLoadedKB !== undefined && lh.scriptsLoadedKB > budget.jsKB && `${page.type}: ${lh.scriptsLoadedKB} KB of scripts loaded > ${budget.jsKB}`,
      lh.performance !== undefined && lh.performance < budget.performance && `${page.type}: performance ${lh.performance}`,
      lh.accessibility !== undefined && lh.accessibility < budget.accessibility && `${page.type}: accessibility ${lh.accessibility}`,
      lh.bestPractices !== undefined && lh.bestPractices < budget.bestPractices && `${page.type}: best practices ${lh.bestPractices}`,
      lh.seo !== undefined && lh.seo < budget.seo && `${page.type}: SEO ${lh.seo}`,
      lh.cls !== undefined && lh.cls > budget.cls && `${page.type}: CLS ${lh.cls}`,
      "lighthouseError" in page && `${page.type}: not measured (${page.lighthouseError})`,
    ].filter(Boolean);
  });
  console.log(misses.length === 0 ? "Every budget holds (docs/decisions/0043-what-waits-for-the-page.md)." : `Budget missed:\n  ${misses.join("\n  ")}`);
  mkdirSync(join(root, "bench-results"), { recursive: true });
  const written = { ...result, ratios: loadTest ? loadRatios(loadTest.load) : null, misses };
  if (previous) {
    console.log(`compared with ${previousFile}:`);
    console.table(compareWithPrevious(previous, written));
  }
  writeFileSync(resultsFile, `${JSON.stringify(written, null, 2)}\n`);
} finally {
  await chrome?.kill();
  await server.stop();
}
