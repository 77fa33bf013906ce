import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLocalS3 } from "../app/test-support/s3";
import { addFile, randomPdf } from "../tests/e2e/support/digital-files";
import { placeOrder } from "../tests/e2e/support/orders-over-http";
import { startServer, type RunningServer } from "../tests/e2e/support/server";
import { benchServerEnv } from "./bench-orders";

/**
 * Digital delivery through the store (decision record 27): the time to download a 50 MB file, and
 * the server's resident memory while 20 downloads of it run at once, with the file on the
 * filesystem and in S3 (s3rver on loopback). A download streams: memory must not grow with the file.
 */

export interface DownloadFigures {
  storage: string;
  fileMB: number;
  /** Median of three sequential downloads, request to last byte. */
  downloadMs: number;
  downloadMBps: number;
  /** 20 downloads at once: the last one's end. */
  concurrentDownloads: number;
  concurrentWallMs: number;
  rssBeforeMB: number;
  peakRssDuringMB: number;
  failures: number;
}

const fileBytes = 50 * 1024 * 1024;

function rssMB(server: RunningServer): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, "utf8");
  return +(Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? Number.NaN) / 1024).toFixed(1);
}

/** An order with the ebook accepted on its upsell page; its download link from the thank-you page. */
async function ebookLink(baseUrl: string, index: number): Promise<string> {
  const { cookie } = await placeOrder(baseUrl, { email: `bench-${index}@example.com`, thankYou: false });
  const accepted = await fetch(`${baseUrl}/upsell/de`, { method: "POST", body: new URLSearchParams({ intent: "accept", digitalConsent: "yes" }), headers: { Cookie: cookie }, redirect: "manual" });
  if (accepted.status !== 303) throw new Error(`The ebook upsell answered ${accepted.status}`);
  const thankYou = await (await fetch(`${baseUrl}/thankyou/de`, { headers: { Cookie: cookie } })).text();
  const path = /href="(\/download\/[^"]+)" data-testid="download-link"/.exec(thankYou)?.[1];
  if (!path) throw new Error("The thank-you page shows no download link");
  return `${baseUrl}${path}`;
}

/** Reads a download to its end without keeping it; its size, or -1 for a failed one. */
async function download(url: string): Promise<number> {
  const response = await fetch(url);
  if (response.status !== 200 || !response.body) return -1;
  let bytes = 0;
  const reader = response.body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.length;
  return bytes;
}

async function measure(storage: "filesystem" | "s3"): Promise<DownloadFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), "bench-downloads-"));
  const s3 = storage === "s3" ? await startLocalS3() : undefined;
  const env = { DATA_DIR: dataDir, DOWNLOAD_LINK_MAX_DOWNLOADS: "100", ...(s3 ? { S3_URL: s3.url } : {}) };
  let server: RunningServer | undefined;
  try {
    const file = join(dataDir, "ebook.pdf");
    // randomPdf adds its 22 bytes of signature and end marker around the random ones.
    await writeFile(file, randomPdf(fileBytes - 22));
    const stored = await addFile(env, "ebook", file);
    if (stored.status !== 0) throw new Error(`add-file failed: ${stored.stderr}`);
    server = await startServer({ ...env, ...benchServerEnv });
    // One link for the timed downloads, two for the 20 at once (a link takes 20 requests a minute).
    const [timed, ...concurrentLinks] = [await ebookLink(server.url, 0), await ebookLink(server.url, 1), await ebookLink(server.url, 2)];
    const times: number[] = [];
    let failures = 0;
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      if ((await download(timed ?? "")) !== fileBytes) failures += 1;
      times.push(performance.now() - started);
    }
    const downloadMs = Math.round((times.sort((a, b) => a - b)[1] ?? Number.NaN) as number);
    const rssBeforeMB = rssMB(server);
    let peak = rssBeforeMB;
    const running = server;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMB(running));
    }, 25);
    const started = performance.now();
    const sizes = await Promise.all(Array.from({ length: 20 }, (_, i) => download(concurrentLinks[i % concurrentLinks.length] ?? "")));
    const concurrentWallMs = Math.round(performance.now() - started);
    clearInterval(sampler);
    failures += sizes.filter((size) => size !== fileBytes).length;
    return {
      storage: storage === "s3" ? "S3 (s3rver)" : "filesystem",
      fileMB: fileBytes / (1024 * 1024),
      downloadMs,
      downloadMBps: +(fileBytes / (1024 * 1024) / (downloadMs / 1000)).toFixed(1),
      concurrentDownloads: 20,
      concurrentWallMs,
      rssBeforeMB,
      peakRssDuringMB: peak,
      failures,
    };
  } finally {
    await server?.stop();
    await s3?.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function downloadBench(): Promise<DownloadFigures[]> {
  return [await measure("filesystem"), await measure("s3")];
}
