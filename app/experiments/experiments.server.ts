import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Queryable } from "../db/database.server";
import { experimentCounts, experiments, type ExperimentArmRow, type ExperimentStatus } from "./schema";
import { utcDay } from "../funnel/page-views.server";
import { marketMismatches, type ExperimentInput } from "./experiment-model";

/**
 * Split tests in the database: created, started, stopped and shipped, and counted. Arms and
 * weights are fixed once a test has started: the only way to change a split is a new test, so a
 * visitor's arm (carried in the URL or the cookie) always means the same page.
 */

export type Experiment = typeof experiments.$inferSelect;

export type Change =
  | { kind: "done"; experiment: Experiment }
  | { kind: "refused"; reason: "not_found" | "wrong_status" | "entry_taken" | "bad_arm" | "locked" | "loop" | "other_market"; text: string };

const keyAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Eight random letters and digits: the hash's seed and the experiment's name in URLs. */
function newExperimentKey(): string {
  return [...randomBytes(8)].map((byte) => keyAlphabet[byte % keyAlphabet.length]).join("");
}

/** A row the statement just wrote and returned. */
function done(experiment: Experiment | undefined): Change {
  if (!experiment) throw new Error("The experiment's row was not returned");
  return { kind: "done", experiment };
}

async function runningOn(tx: Queryable, entryPath: string): Promise<Experiment | undefined> {
  const [found] = await tx.select().from(experiments).where(and(eq(experiments.status, "running"), eq(experiments.entryPath, entryPath)));
  return found;
}

const entryTaken = (entryPath: string, other: Experiment): Change => ({
  kind: "refused",
  reason: "entry_taken",
  text: `${entryPath} is already under test in "${other.name}"; stop or ship that test first.`,
});

/** The paths a test sends visitors to from its entry: every arm while it runs, the shipped arm once shipped. */
function destinations(test: Pick<Experiment, "entryPath" | "arms">, shippedArm: number | null): string[] {
  const arms = shippedArm === null ? test.arms : test.arms.slice(shippedArm, shippedArm + 1);
  const entry = test.entryPath.toLowerCase();
  return arms.map((arm) => arm.path.toLowerCase()).filter((path) => path !== entry);
}

/**
 * A test that would send visitors round in a circle with a live one, refused with the reason: one
 * of its arms is a live test's entry (the visitor would be sent on again), or its entry is an arm
 * of a live test (it would send on the visitors that test sends it).
 */
async function loopWithLive(tx: Queryable, test: Pick<Experiment, "entryPath" | "arms"> & { key?: string }, shippedArm: number | null): Promise<Change | null> {
  const live = await tx.select().from(experiments).where(sql`${experiments.status} in ('running', 'shipped')`);
  const entry = test.entryPath.toLowerCase();
  const sendsTo = destinations(test, shippedArm);
  for (const other of live) {
    if (other.key === test.key) continue;
    const otherEntry = other.entryPath.toLowerCase();
    if (sendsTo.includes(otherEntry)) {
      return { kind: "refused", reason: "loop", text: `${other.entryPath} is the entry of "${other.name}", which is ${other.status}: a visitor would be sent on again from this test's arm. Stop or end that test first.` };
    }
    if (destinations(other, other.status === "shipped" ? other.shippedArm : null).includes(entry)) {
      return { kind: "refused", reason: "loop", text: `${test.entryPath} is an arm of "${other.name}", which is ${other.status}: a visitor it sends there would be sent on again. Stop or end that test first.` };
    }
  }
  return null;
}

/**
 * A test whose arm would show some of its visitors another market's prices, refused with the
 * reason before it starts: the form refuses such arms, but a draft saved before it did may not run.
 */
function otherMarket(test: Pick<Experiment, "entryPath" | "arms" | "market">): Change | null {
  const mismatches = marketMismatches(test.entryPath, test.arms, test.market);
  return mismatches.length === 0 ? null : { kind: "refused", reason: "other_market", text: mismatches.join(" ") };
}

/** A new test, started at once when asked (the form's "Start"); refused while its entry is under test. */
export async function createExperiment(tx: Queryable, input: ExperimentInput, start: boolean, now = new Date()): Promise<Change> {
  const loop = await loopWithLive(tx, input, null);
  if (loop) return loop;
  if (start) {
    const mismatch = otherMarket(input);
    if (mismatch) return mismatch;
    const other = await runningOn(tx, input.entryPath);
    if (other) return entryTaken(input.entryPath, other);
  }
  const [experiment] = await tx
    .insert(experiments)
    .values({
      key: newExperimentKey(),
      name: input.name,
      entryPath: input.entryPath,
      arms: input.arms,
      market: input.market,
      hypothesis: input.hypothesis,
      primaryMetric: input.primaryMetric,
      status: start ? "running" : "draft",
      startedAt: start ? now : null,
    })
    .returning();
  forgetLiveExperiments();
  return done(experiment);
}

export async function findExperiment(db: Queryable, key: string): Promise<Experiment | undefined> {
  const [found] = await db.select().from(experiments).where(eq(experiments.key, key));
  return found;
}

export async function listExperiments(db: Queryable): Promise<Experiment[]> {
  return db.select().from(experiments).orderBy(desc(experiments.createdAt));
}

async function changeStatus(tx: Queryable, key: string, from: readonly ExperimentStatus[], to: Partial<typeof experiments.$inferInsert>, text: string): Promise<Change> {
  const found = await findExperiment(tx, key);
  if (!found) return { kind: "refused", reason: "not_found", text: "There is no such experiment." };
  if (!from.includes(found.status)) return { kind: "refused", reason: "wrong_status", text: `${text} (it is ${found.status}).` };
  if (to.status === "running") {
    const mismatch = otherMarket(found);
    if (mismatch) return mismatch;
    const other = await runningOn(tx, found.entryPath);
    if (other) return entryTaken(found.entryPath, other);
  }
  if (to.status === "running" || to.status === "shipped") {
    const loop = await loopWithLive(tx, found, to.status === "shipped" ? (to.shippedArm ?? 0) : null);
    if (loop) return loop;
  }
  const [experiment] = await tx.update(experiments).set(to).where(eq(experiments.key, key)).returning();
  forgetLiveExperiments();
  return done(experiment);
}

export function startExperiment(tx: Queryable, key: string, now = new Date()): Promise<Change> {
  return changeStatus(tx, key, ["draft"], { status: "running", startedAt: now }, "Only a draft can be started");
}

/** A running test stops; a shipped one ends (its entry serves its own page again), keeping when it stopped. */
export async function stopExperiment(tx: Queryable, key: string, now = new Date()): Promise<Change> {
  const found = await findExperiment(tx, key);
  return changeStatus(tx, key, ["running", "shipped"], { status: "stopped", stoppedAt: found?.stoppedAt ?? now }, "Only a running or shipped test can be stopped");
}

/** One arm takes all traffic of the entry path from now on (a later test of the same entry takes precedence while it runs). */
export async function shipExperiment(tx: Queryable, key: string, arm: number, now = new Date()): Promise<Change> {
  const found = await findExperiment(tx, key);
  if (found && !(Number.isInteger(arm) && arm >= 0 && arm < found.arms.length)) return { kind: "refused", reason: "bad_arm", text: "The experiment has no such arm." };
  return changeStatus(tx, key, ["running", "stopped"], { status: "shipped", shippedArm: arm, stoppedAt: found?.stoppedAt ?? now }, "Only a running or stopped test can be shipped");
}

/** What the server needs to route an entry path: running tests, and shipped ones that no running test replaces. */
export interface LiveExperiment {
  key: string;
  entryPath: string;
  arms: readonly ExperimentArmRow[];
  market: string | null;
  status: "running" | "shipped";
  shippedArm: number | null;
}

/** Live experiments by lower-case entry path. */
export type LiveExperiments = ReadonlyMap<string, LiveExperiment>;

export async function loadLiveExperiments(db: Queryable): Promise<LiveExperiments> {
  const rows = await db
    .select()
    .from(experiments)
    .where(sql`${experiments.status} in ('running', 'shipped')`)
    .orderBy(desc(experiments.stoppedAt));
  const live = new Map<string, LiveExperiment>();
  for (const row of rows) {
    const entry = row.entryPath.toLowerCase();
    const current = live.get(entry);
    // A running test wins over a shipped one; of shipped ones, the latest.
    if (current && (current.status === "running" || row.status !== "running")) continue;
    live.set(entry, { key: row.key, entryPath: row.entryPath, arms: row.arms, market: row.market, status: row.status as "running" | "shipped", shippedArm: row.shippedArm });
  }
  return live;
}

/** How long another instance's change may take to reach this one, give or take one read. */
const liveExperimentsMaxAgeMs = 2_000;
/** Past this, a list is not answered from while the next loads: a database that stays away stops the tests. */
const liveExperimentsMaxStaleMs = 30_000;
let cached: { at: number; live: LiveExperiments } | null = null;
let loading: Promise<LiveExperiments> | null = null;
/** Counts changes made here: a read begun before one must not keep its older list. */
let changes = 0;

/**
 * The live experiments, read again at most every two seconds (and at once after a change here).
 * When the list is older than that, the request is answered from it while the next one loads:
 * no visitor's entry waits on the database. At start, after a change made here, and when the
 * list is older than half a minute (the database away), the caller waits for the read.
 */
export async function liveExperiments(db: Queryable, now = Date.now()): Promise<LiveExperiments> {
  if (cached && now - cached.at < liveExperimentsMaxAgeMs) return cached.live;
  const read = loading ?? startReading(db);
  if (cached && now - cached.at < liveExperimentsMaxStaleMs) return cached.live;
  return read;
}

function startReading(db: Queryable): Promise<LiveExperiments> {
  const changesAtStart = changes;
  const read: Promise<LiveExperiments> = loadLiveExperiments(db)
    .then((live) => {
      if (changes === changesAtStart) cached = { at: Date.now(), live };
      return live;
    })
    .finally(() => {
      if (loading === read) loading = null;
    });
  loading = read;
  // A failure reaches whoever waits for the read; requests answered from the older list need not
  // hear of it, and once that list is half a minute old everyone waits (and hears).
  read.catch(() => undefined);
  return read;
}

function forgetLiveExperiments(): void {
  cached = null;
  loading = null;
  changes += 1;
}

/** The step name under which assignments are counted, beside the funnel steps of page views. */
export const exposureStep = "exposure";

/** Counts for an arm, a day (UTC), a market and a step, added atomically (one by default). */
export async function countForArm(db: Queryable, count: { key: string; arm: number; market: string; step: string; day?: string; amount?: number }, now = new Date()): Promise<void> {
  const amount = count.amount ?? 1;
  await db
    .insert(experimentCounts)
    .values({ experimentKey: count.key, arm: count.arm, day: count.day ?? utcDay(now), market: count.market, step: count.step, count: amount })
    .onConflictDoUpdate({
      target: [experimentCounts.experimentKey, experimentCounts.arm, experimentCounts.day, experimentCounts.market, experimentCounts.step],
      set: { count: sql`${experimentCounts.count} + ${amount}` },
    });
}

/**
 * Assignments are added up in memory and written every half second (and when the store stops):
 * one write per arm and market instead of one per visitor keeps the database off the redirect's
 * path. A crash loses at most the last half second's counts.
 */
const exposureFlushMs = 500;
const pendingExposures = new Map<string, { key: string; arm: number; market: string; day: string; amount: number }>();
let flushTimer: ReturnType<typeof setTimeout> | null = null;

export function bufferExposure(db: Queryable, exposure: { key: string; arm: number; market: string }, now = new Date()): void {
  const day = utcDay(now);
  const id = `${exposure.key}\n${exposure.arm}\n${exposure.market}\n${day}`;
  const pending = pendingExposures.get(id) ?? { ...exposure, day, amount: 0 };
  pending.amount += 1;
  pendingExposures.set(id, pending);
  if (!flushTimer) {
    flushTimer = setTimeout(() => {
      flushExposures(db).catch((error: unknown) => console.error(error));
    }, exposureFlushMs);
    flushTimer.unref();
  }
}

export async function flushExposures(db: Queryable): Promise<void> {
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  const rows = [...pendingExposures.values()];
  pendingExposures.clear();
  for (const row of rows) await countForArm(db, { ...row, step: exposureStep });
}
