/**
 * What a split test's assignment adds to a visitor's entry (docs/decisions/0035-exposure-tokens.md,
 * "Cost"): two servers of the same build, one with a test of `/offer` against `/offer2` running and
 * one without, are sent the same entry request in turn, the order of the two swapped every visit.
 * On the server without the test a visit is the entry page; on the one with it, the entry that
 * assigns the arm: the arm's page answered at the entry's address, or, where the server does not
 * keep that page, the redirect plus the arm's page at the address it gave (decision 28). Each is
 * timed to its last byte. Alternating puts both under the same load of the machine at the same
 * moment, so their difference is the test's and not the neighbours'. Each pair is measured for the
 * prerendered path (`/offer/fr`), the geo path (`/offer` with a country header) and a page that is
 * no entry. Requests go one after another over a kept-alive connection per server on loopback, so
 * a time is the server's own: a real visitor's network adds one round trip for any redirect.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningServer } from "../tests/e2e/support/server";
import { benchServerEnv } from "./bench-orders";

/** The budget: what the assignment adds to an entry, at p99, in milliseconds. */
export const addedP99BudgetMs = 2;

const operator = { email: "bench.owner@example.com", password: "bench owner password" };
const personAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

export interface AddedTimeFigures {
  request: string;
  path: string;
  visits: number;
  withoutTestP50Ms: number;
  withoutTestP99Ms: number;
  withTestP50Ms: number;
  withTestP99Ms: number;
  /** The redirect and the arm's page, each on its own, of the visits with the test that took a redirect (null when every entry was answered in place). */
  redirectP99Ms: number | null;
  armPageP99Ms: number | null;
  /** p99 with the test minus p99 without it: the figure the budget is about. */
  addedP99Ms: number;
  addedP50Ms: number;
  /** Each visit with the test minus the visit without it that was sent beside it. */
  pairedAddedP50Ms: number;
  pairedAddedP99Ms: number;
  /** The servers' processor time per visit, on average: the work added, whatever else the machine runs. */
  withoutTestCpuMsPerVisit: number;
  withTestCpuMsPerVisit: number;
  holds: boolean;
}

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return +(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN).toFixed(3);
}

/** One GET as a browser sends it; resolves with its status, its Location or Content-Location and the milliseconds to its last byte. */
function timedGet(url: string, headers: Record<string, string>): Promise<{ status: number; location: string; contentLocation: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(url, { agent, headers: { "User-Agent": personAgent, "Accept-Encoding": "gzip, br", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: String(res.headers.location ?? ""), contentLocation: String(res.headers["content-location"] ?? ""), ms: performance.now() - started }));
    });
    req.on("error", reject);
    req.end();
  });
}

interface Visit {
  ms: number;
  /** The redirect's own time, when the entry took one. */
  redirectMs: number | null;
  /** Whether the visit was assigned an arm: answered at the entry with an arm's address, or redirected to one. */
  assigned: boolean;
}

/** A visitor's entry: the page, or the redirect and then the page it names. Anything else stops the benchmark. */
async function visit(base: string, path: string, headers: Record<string, string>): Promise<Visit> {
  const first = await timedGet(base + path, headers);
  if (first.status === 200) return { ms: first.ms, redirectMs: null, assigned: first.contentLocation.includes("xp=") };
  if (first.status !== 302 || first.location === "") throw new Error(`${path} answered ${first.status}, not a page or a redirect`);
  const page = await timedGet(new URL(first.location, base).href, headers);
  if (page.status !== 200) throw new Error(`The arm's page ${first.location} answered ${page.status}`);
  return { ms: first.ms + page.ms, redirectMs: first.ms, assigned: first.location.includes("xp=") };
}

/** A process's processor time so far (user and system), in milliseconds, from Linux's `/proc`. */
function cpuMs(pid: number): number {
  // utime and stime, fields 14 and 15 of the line (counted from the pid), in clock ticks of 10 ms.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface Servers {
  without: string;
  with: string;
  withoutPid: number;
  withPid: number;
}

/** `visits` visits of `path` on each server, in turn, after a warm-up that also fills each arm's page cache. */
async function measurePair(name: string, path: string, isEntry: boolean, servers: Servers, visits: number, headers: Record<string, string> = {}): Promise<AddedTimeFigures> {
  const warmUp = 300;
  const without: number[] = [];
  const withTest: number[] = [];
  const redirects: number[] = [];
  const armPages: number[] = [];
  let cpuAtStart = { without: 0, with: 0 };
  for (let index = 0; index < warmUp + visits; index++) {
    if (index === warmUp) cpuAtStart = { without: cpuMs(servers.withoutPid), with: cpuMs(servers.withPid) };
    // Which server goes first changes every visit, so neither always meets a machine the other just woke.
    const first = index % 2 === 0 ? "without" : "with";
    const a = await visit(servers[first], path, headers);
    const b = await visit(servers[first === "without" ? "with" : "without"], path, headers);
    if (index < warmUp) continue;
    const [plain, tested] = first === "without" ? [a, b] : [b, a];
    // A test that assigned nothing (not started, or its entry missed) would measure nothing.
    if (plain.assigned || tested.assigned !== isEntry) throw new Error(`${path}: a visit ${tested.assigned ? "was" : "was not"} assigned an arm on the server with the test, ${plain.assigned ? "and one was" : "none"} on the one without`);
    without.push(plain.ms);
    withTest.push(tested.ms);
    if (tested.redirectMs !== null) {
      redirects.push(tested.redirectMs);
      armPages.push(tested.ms - tested.redirectMs);
    }
  }
  const cpuPerVisit = (pid: number, atStart: number) => +((cpuMs(pid) - atStart) / visits).toFixed(3);
  const withoutTestCpuMsPerVisit = cpuPerVisit(servers.withoutPid, cpuAtStart.without);
  const withTestCpuMsPerVisit = cpuPerVisit(servers.withPid, cpuAtStart.with);
  const paired = withTest.map((ms, index) => ms - (without[index] ?? Number.NaN));
  const addedP99Ms = +(percentile(withTest, 0.99) - percentile(without, 0.99)).toFixed(3);
  return {
    request: name,
    path,
    visits,
    withoutTestP50Ms: percentile(without, 0.5),
    withoutTestP99Ms: percentile(without, 0.99),
    withTestP50Ms: percentile(withTest, 0.5),
    withTestP99Ms: percentile(withTest, 0.99),
    redirectP99Ms: redirects.length > 0 ? percentile(redirects, 0.99) : null,
    armPageP99Ms: armPages.length > 0 ? percentile(armPages, 0.99) : null,
    addedP99Ms,
    addedP50Ms: +(percentile(withTest, 0.5) - percentile(without, 0.5)).toFixed(3),
    pairedAddedP50Ms: percentile(paired, 0.5),
    pairedAddedP99Ms: percentile(paired, 0.99),
    withoutTestCpuMsPerVisit,
    withTestCpuMsPerVisit,
    holds: addedP99Ms < addedP99BudgetMs,
  };
}

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

/** A server of the current build on a database of its own. */
async function serverWithOwnData(withOperator: boolean): Promise<{ server: RunningServer; dataDir: string }> {
  const dataDir = await mkdtemp(join(tmpdir(), "storefront-bench-xp-"));
  const env = { ...benchServerEnv, DATA_DIR: dataDir };
  if (withOperator) {
    const added = spawnSync(process.execPath, ["scripts/admin.mjs", "add-user", operator.email, "--role", "owner"], { input: `${operator.password}\n`, env: { ...process.env, ...env }, encoding: "utf8" });
    if (added.status !== 0) throw new Error(`Could not add the benchmark's operator: ${added.stderr}`);
  }
  return { server: await startServer(env), dataDir };
}

function pid(server: RunningServer): number {
  if (server.process.pid === undefined) throw new Error("The benchmark's server has no process id");
  return server.process.pid;
}

export interface AssignmentCost {
  measuredAt: string;
  /** The machine's load average (1, 5 and 15 minutes) before and after: a busy machine widens every tail. */
  loadAverageBefore: number[];
  loadAverageAfter: number[];
  budget: { addedP99Ms: number };
  pairs: AddedTimeFigures[];
  /** Which rows miss the budget; empty when it holds. */
  misses: string[];
}

/** Entry requests with and without a running test of `/offer` against `/offer2`, interleaved. */
export async function assignmentCost(visits = 3000): Promise<AssignmentCost> {
  const loadAverageBefore = loadavg().map((load) => +load.toFixed(2));
  const started: { server: RunningServer; dataDir: string }[] = [];
  try {
    const without = await serverWithOwnData(false);
    started.push(without);
    const withTest = await serverWithOwnData(true);
    started.push(withTest);
    await startTest(withTest.server.url);
    const servers = { without: without.server.url, with: withTest.server.url, withoutPid: pid(without.server), withPid: pid(withTest.server) };
    const pairs = [
      await measurePair("entry, prerendered", "/offer/fr?src=ad", true, servers, visits),
      await measurePair("entry, geo page", "/offer?src=ad", true, servers, visits, { "CF-IPCountry": "FR" }),
      await measurePair("a page that is no entry", "/take/fr?src=ad", false, servers, visits),
    ];
    const misses = pairs.filter((pair) => !pair.holds).map((pair) => `${pair.request}: ${pair.addedP99Ms} ms added at p99 > ${addedP99BudgetMs}`);
    return {
      measuredAt: new Date().toISOString(),
      loadAverageBefore,
      loadAverageAfter: loadavg().map((load) => +load.toFixed(2)),
      budget: { addedP99Ms: addedP99BudgetMs },
      pairs,
      misses,
    };
  } finally {
    for (const { server, dataDir } of started) {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    agent.destroy();
  }
}
