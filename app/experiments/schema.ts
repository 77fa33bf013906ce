import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";

export const experimentStatuses = ["draft", "running", "stopped", "shipped"] as const;
export type ExperimentStatus = (typeof experimentStatuses)[number];

/** What a test's verdict is given on, chosen when it is created: one metric, so one family of comparisons. */
export const primaryMetrics = ["conversion", "revenue"] as const;
export type PrimaryMetric = (typeof primaryMetrics)[number];

/** One arm of a split test: a funnel path and its share of the traffic in percent. */
export interface ExperimentArmRow {
  path: string;
  weight: number;
}

/**
 * Split tests (docs/decisions/0028-split-tests.md). The key seeds the assignment hash and names the experiment in the
 * `xp` query; arm numbers are positions in `arms`, the first being the control. Arms and weights
 * never change once the experiment has run, so an assigned visitor never changes arm.
 */
export const experiments = pgTable(
  "experiments",
  {
    key: text("key").primaryKey(),
    name: text("name").notNull(),
    /** A plain path of the route table (`/offer`); its locale twins are part of it. */
    entryPath: text("entry_path").notNull(),
    arms: jsonb("arms").$type<ExperimentArmRow[]>().notNull(),
    /** Only visitors of this market take part; every market when null. */
    market: text("market"),
    hypothesis: text("hypothesis").notNull().default(""),
    primaryMetric: text("primary_metric").$type<PrimaryMetric>().notNull().default("conversion"),
    status: text("status").$type<ExperimentStatus>().notNull(),
    shippedArm: integer("shipped_arm"),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    stoppedAt: timestamp("stopped_at", { withTimezone: true }),
  },
  (table) => [
    check("experiments_status_check", sql`${table.status} in ('draft','running','stopped','shipped')`),
    check("experiments_primary_metric_check", sql`${table.primaryMetric} in ('conversion','revenue')`),
    // One running test per entry path, whatever two operators do at once.
    uniqueIndex("experiments_running_entry_unique").on(table.entryPath).where(sql`${table.status} = 'running'`),
  ],
);

/**
 * Assignments made (exposures) and funnel page views per arm, as counts per day and market, with
 * the step for views (`exposure` for an assignment): nothing that tells two visitors apart.
 */
export const experimentCounts = pgTable(
  "experiment_counts",
  {
    experimentKey: text("experiment_key")
      .notNull()
      .references(() => experiments.key),
    arm: integer("arm").notNull(),
    day: text("day").notNull(),
    market: text("market").notNull(),
    step: text("step").notNull(),
    count: integer("count").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.experimentKey, table.arm, table.day, table.market, table.step] })],
);
