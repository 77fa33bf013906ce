/**
 * `npm run bench`: builds, serves and measures what a first visit costs on each page type.
 * Prints a table and writes `bench-results/bench.json`. Figures, never assertions: the budget
 * (DESIGN §9) is checked by reading them.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { startServer } from "../tests/e2e/support/server";

const root = new URL("..", import.meta.url).pathname;
const clientDir = join(root, "build", "client");

const pageTypes: Record<string, string> = {
  landing: "/fr",
  quiz: "/v1/fr",
  summary: "/summary/fr",
  offer: "/offer/fr",
  upsell: "/upsell/fr",
  "thank-you": "/thankyou/fr",
};

function build(): number {
  const started = performance.now();
  const result = spawnSync("npm", ["run", "build"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  if (result.status !== 0) throw new Error("The build failed");
  return (performance.now() - started) / 1000;
}

function countPrerenderedPages(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((path) => path.endsWith("index.html")).length;
}

/** Every script a first visit loads: the module entry and everything it modulepreloads. */
function scriptsOf(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.js)"|import\("(\/assets\/[^"]+\.js)"\)/g)) {
    urls.add((match[1] ?? match[2]) as string);
  }
  return [...urls];
}

function gzippedSize(path: string): number {
  return gzipSync(readFileSync(join(clientDir, path))).length;
}

const skipBuild = process.argv.includes("--no-build");
const buildSeconds = skipBuild ? null : build();
const server = await startServer();
try {
  const rows = [];
  for (const [type, path] of Object.entries(pageTypes)) {
    const html = await (await fetch(server.url + path)).text();
    const scripts = scriptsOf(html);
    const jsGzip = scripts.reduce((sum, script) => sum + gzippedSize(script), 0);
    rows.push({ type, path, scripts: scripts.length, firstLoadJsGzipKB: +(jsGzip / 1024).toFixed(1) });
  }
  const result = {
    buildSeconds: buildSeconds === null ? null : +buildSeconds.toFixed(1),
    prerenderedPages: countPrerenderedPages(clientDir),
    pages: rows,
  };
  console.log(`build: ${result.buildSeconds ?? "skipped"} s, prerendered pages: ${result.prerenderedPages}`);
  console.table(rows);
  mkdirSync(join(root, "bench-results"), { recursive: true });
  writeFileSync(join(root, "bench-results", "bench.json"), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  await server.stop();
}
