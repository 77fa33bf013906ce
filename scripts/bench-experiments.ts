/**
 * The cost of a split test's assignment (decision 0028): the time of an entry request on loopback
 * with no test running, and with a test of that entry running: the redirect that assigns the arm
 * and the arm's page the browser then asks for, at the address the redirect gave (its `xp` with
 * the exposure's own token, checked and passed on; the page cached once per arm). Requests are sent
 * one after another over a kept-alive connection, so each time is one request's own; the server
 * runs on the embedded database with the benchmark's usual settings.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../tests/e2e/support/server";
import { benchServerEnv } from "./bench-orders";

const operator = { email: "bench.owner@example.com", password: "bench owner password" };
const personAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

export interface EntryTimeFigures {
  request: string;
  path: string;
  status: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
}

function percentile(sorted: number[], share: number): number {
  return +(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN).toFixed(3);
}

/** One GET as a browser sends it; resolves with its status, its Location and the milliseconds to its last byte. */
function timedGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; location: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers: { "User-Agent": personAgent, "Accept-Encoding": "gzip, br", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? ""), ms: performance.now() - started }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Where the redirects measured last sent the browser: the arm pages' addresses, each with its own token. */
let locations: string[] = [];

async function measure(name: string, url: (index: number) => string, requests: number, headers: Record<string, string> = {}): Promise<EntryTimeFigures> {
  for (let warm = 0; warm < 50; warm++) await timedGet(url(warm), headers);
  const times: number[] = [];
  const seen: string[] = [];
  let status = 0;
  for (let index = 0; index < requests; index++) {
    const answer = await timedGet(url(index), headers);
    status = answer.status;
    times.push(answer.ms);
    seen.push(answer.location);
  }
  locations = seen;
  times.sort((a, b) => a - b);
  return { request: name, path: new URL(url(0)).pathname + new URL(url(0)).search, status, requests, p50Ms: percentile(times, 0.5), p99Ms: percentile(times, 0.99) };
}

/** The arm page of the index-th redirect measured last. */
const redirectedTo = (base: string) => {
  const redirected = locations;
  return (index: number) => `${base}${redirected[index % redirected.length] ?? ""}`;
};

async function startTest(baseUrl: string): Promise<string> {
  const origin = { Origin: baseUrl, "Content-Type": "application/x-www-form-urlencoded" };
  const login = await fetch(`${baseUrl}/admin/login`, { method: "POST", redirect: "manual", headers: origin, body: new URLSearchParams({ email: operator.email, password: operator.password, next: "/admin/experiments" }) });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const form = new URLSearchParams([
    ["name", "Benchmark"],
    ["entry", "/offer"],
    ["armPath", "/offer"],
    ["armWeight", "50"],
    ["armPath", "/offer2"],
    ["armWeight", "50"],
    ["primaryMetric", "conversion"],
    ["intent", "start"],
  ]);
  const created = await fetch(`${baseUrl}/admin/experiments`, { method: "POST", redirect: "manual", headers: { ...origin, cookie }, body: form });
  const key = /experiments\/([a-z0-9]{8})/.exec(created.headers.get("location") ?? "")?.[1];
  if (!key) throw new Error(`The benchmark's split test was not started (${created.status})`);
  return key;
}

/** Entry requests without and with a running test of `/offer` against `/offer2`. */
export async function assignmentCost(requests = 2000): Promise<{ figures: EntryTimeFigures[]; extraP50Ms: number; extraP99Ms: number }> {
  const dataDir = await mkdtemp(join(tmpdir(), "storefront-bench-xp-"));
  const env = { ...benchServerEnv, DATA_DIR: dataDir };
  const added = spawnSync(process.execPath, ["scripts/admin.mjs", "add-user", operator.email, "--role", "owner"], { input: `${operator.password}\n`, env: { ...process.env, ...env }, encoding: "utf8" });
  if (added.status !== 0) throw new Error(`Could not add the benchmark's operator: ${added.stderr}`);
  const server = await startServer(env);
  try {
    const base = server.url;
    const before = [
      await measure("entry, no test (prerendered)", () => `${base}/offer/fr?src=ad`, requests),
      await measure("entry, no test (geo page)", () => `${base}/offer?src=ad`, requests, { "CF-IPCountry": "FR" }),
    ];
    await startTest(base);
    const after = [
      await measure("entry, test running: the redirect (prerendered)", () => `${base}/offer/fr?src=ad`, requests),
      await measure("arm's page with xp and its token (prerendered)", redirectedTo(base), requests),
      await measure("entry, test running: the redirect (geo page)", () => `${base}/offer?src=ad`, requests, { "CF-IPCountry": "FR" }),
      await measure("arm's page with xp and its token (geo page)", redirectedTo(base), requests, { "CF-IPCountry": "FR" }),
      await measure("another page, test running (prerendered)", () => `${base}/take/fr?src=ad`, requests),
    ];
    const noTest = before[0] as EntryTimeFigures;
    const redirect = after[0] as EntryTimeFigures;
    const arm = after[1] as EntryTimeFigures;
    return {
      figures: [...before, ...after],
      // What a visitor's entry costs the server more: the redirect, plus its arm's page over the page it would have had.
      extraP50Ms: +(redirect.p50Ms + arm.p50Ms - noTest.p50Ms).toFixed(3),
      extraP99Ms: +(redirect.p99Ms + arm.p99Ms - noTest.p99Ms).toFixed(3),
    };
  } finally {
    await server.stop();
    agent.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
}
