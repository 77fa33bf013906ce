// Part of `npm run build`: writes a Brotli (quality 11) and a gzip (level 9) twin, `x.br` and
// `x.gz`, of every compressible file of `build/client`: prerendered documents, their `.data`,
// scripts, styles, SVG and JSON. Formats that are compressed already (WebP, AVIF, PNG, JPEG,
// WOFF2, ...) get none, and a twin that is not smaller than its file is not written. The server
// reads the twins at start-up and answers with them (`server/prerendered.ts`).
import { availableParallelism } from "node:os";

// zlib's asynchronous calls run in the libuv threadpool: one thread per core, set before first use.
const threads = Math.max(2, availableParallelism());
process.env.UV_THREADPOOL_SIZE = String(threads);

const { readdir, readFile, rm, stat, writeFile } = await import("node:fs/promises");
const { extname, join } = await import("node:path");
const { promisify } = await import("node:util");
const zlib = await import("node:zlib");

const clientDir = new URL("../build/client/", import.meta.url).pathname;
const compressible = new Set([".html", ".data", ".js", ".mjs", ".css", ".svg", ".json", ".map", ".txt", ".xml", ".webmanifest", ".ico"]);
const twins = { br: ".br", gzip: ".gz" };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

async function compressFile(path) {
  const body = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzip(body, { level: 9 }),
  ]);
  const sizes = { identity: body.length, br: 0, gzip: 0 };
  for (const [encoding, output] of [["br", br], ["gzip", gz]]) {
    const twin = path + twins[encoding];
    if (output.length < body.length) {
      await writeFile(twin, output);
      sizes[encoding] = output.length;
    } else {
      // Never leave a previous build's twin next to a file that has none now.
      await rm(twin, { force: true });
    }
  }
  return sizes;
}

const started = performance.now();
const paths = [];
for await (const path of walk(clientDir)) {
  if (path.endsWith(".br") || path.endsWith(".gz")) {
    // A twin whose file is gone belongs to an earlier build.
    const original = path.slice(0, -3);
    if (!(await stat(original).catch(() => null))) await rm(path, { force: true });
    continue;
  }
  if (compressible.has(extname(path).toLowerCase())) paths.push(path);
}
// Largest first, so that one big script does not finish alone at the end.
const sized = await Promise.all(paths.map(async (path) => ({ path, size: (await stat(path)).size })));
sized.sort((a, b) => b.size - a.size);

const totals = { files: 0, identity: 0, br: 0, gzip: 0 };
let next = 0;
async function worker() {
  while (next < sized.length) {
    const { path } = sized[next++];
    const sizes = await compressFile(path);
    totals.files++;
    totals.identity += sizes.identity;
    totals.br += sizes.br;
    totals.gzip += sizes.gzip;
  }
}
// Each file keeps two threads busy (Brotli and gzip); gzip is quick, so one file per thread.
await Promise.all(Array.from({ length: threads }, worker));

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `precompress: ${totals.files} files, ${mb(totals.identity)} MB → Brotli ${mb(totals.br)} MB, gzip ${mb(totals.gzip)} MB ` +
    `in ${((performance.now() - started) / 1000).toFixed(1)} s on ${threads} threads`,
);
