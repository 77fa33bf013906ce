/**
 * The page's JavaScript as a browser counts it: every script a first visit loads (the module
 * scripts, their modulepreloads, and what the page imports while and after it hydrates, until the
 * start-up work that waits for the page has run), each gzipped. The static count in `bench.ts`
 * follows only the document's scripts and their static imports; this one also sees the deferred
 * parts (the footer, the sections below the first screen), which the budget counts too
 * (docs/decisions/0047-the-browser-formats-messages-itself.md). Link prefetches are left out, as the budget
 * leaves them out: the page is told that the visitor saves data, which turns them off.
 */
import { gzipSync } from "node:zlib";
import { launchChromium } from "../tests/e2e/support/chromium";

/** How long after `load` the count keeps listening: start-up work waits up to 3 s for the page, then for an idle moment. */
const settleMs = 5000;

export interface ScriptsLoaded {
  /** Path of the page measured. */
  path: string;
  /** Sum of the gzipped scripts, in KB. */
  totalKB: number;
  /** Each script with its gzipped size, largest first. */
  scripts: { script: string; gzipKB: number }[];
}

/** Loads each page in a fresh browser context and adds up the gzipped size of every script of the store's own origin it loads. */
export async function scriptsLoaded(origin: string, paths: readonly string[]): Promise<ScriptsLoaded[]> {
  const browser = await launchChromium();
  try {
    const counts: ScriptsLoaded[] = [];
    for (const path of paths) {
      const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
      // The one thing a visitor who saves data changes on the storefront's pages is prefetching.
      await context.addInitScript(() => Object.defineProperty(navigator, "connection", { value: { saveData: true } }));
      const page = await context.newPage();
      const bodies = new Map<string, Promise<number>>();
      page.on("response", (response) => {
        const url = new URL(response.url());
        if (url.origin !== origin || !url.pathname.endsWith(".js") || bodies.has(url.pathname)) return;
        bodies.set(
          url.pathname,
          response.body().then((body) => gzipSync(body).length, () => 0),
        );
      });
      await page.goto(origin + path, { waitUntil: "load" });
      await page.waitForTimeout(settleMs);
      const sizes = await Promise.all([...bodies].map(async ([script, bytes]) => ({ script, bytes: await bytes })));
      sizes.sort((a, b) => b.bytes - a.bytes);
      const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
      const scripts = sizes.map(({ script, bytes }) => ({ script, gzipKB: +(bytes / 1024).toFixed(1) }));
      counts.push({ path, totalKB: +(total / 1024).toFixed(1), scripts });
      await context.close();
    }
    return counts;
  } finally {
    await browser.close();
  }
}
