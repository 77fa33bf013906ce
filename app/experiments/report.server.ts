import { and, eq, like, sql } from "drizzle-orm";
import type { Queryable } from "../db/database.server";
import { experimentCounts, orders, type OrderStatus } from "../db/schema";
import { markets } from "../market/markets";
import { upsellSource } from "../orders/upsell-service.server";
import { parseXp } from "./experiment-model";
import { exposureStep, type Experiment } from "./experiments.server";
import {
  capPerGroup,
  proportionSample,
  revenueSample,
  sampleRatioCheck,
  sequentialDifference,
  verdictGate,
  type Interval,
  type SampleRatioCheck,
  type VerdictGate,
} from "./statistics.server";

/**
 * A split test's report per arm (DESIGN §18, docs/decisions/0028-split-tests.md):
 * - visitors: assignments made (exposures), one per visit sent to the arm; crawlers never count.
 * - orders: paid orders that carried the arm (refunded and withdrawn ones were sales);
 *   conversion = orders ÷ visitors.
 * - revenue: per order its total less what was refunded, capped at the 99.9th percentile of the
 *   test's orders in its market; per currency only, never added across currencies. Average order
 *   value = revenue ÷ orders; revenue per visitor = revenue ÷ visitors of the markets that pay in
 *   that currency.
 * - upsell take rate: orders that took an upsell ÷ orders that were shown one.
 * - the difference to the control of conversion and of revenue per visitor, with GrowthBook's
 *   asymptotic confidence sequence (valid however often the report is looked at), the sample-ratio
 *   check of the visitors against the weights, and a verdict only after 7 days and 30 orders per arm.
 */

export interface CurrencyFigures {
  currency: string;
  visitors: number;
  orders: number;
  /** Net of refunds and capped, in minor units. */
  revenueMinor: number;
  averageOrderValueMinor: number | null;
  /** Minor units per visitor, unrounded (cents per visitor are often fractions). */
  revenuePerVisitorMinor: number | null;
  /** Arm minus control, in minor units per visitor; null for the control or too little data. */
  difference: Interval | null;
}

export interface ArmFigures {
  arm: number;
  path: string;
  weight: number;
  visitors: number;
  /** Funnel page views that carried the arm, by step. */
  views: Record<string, number>;
  checkoutsStarted: number;
  orders: number;
  conversion: number | null;
  /** Arm minus control, as a proportion; null for the control or too little data. */
  conversionDifference: Interval | null;
  upsellShown: number;
  upsellTaken: number;
  upsellTakeRate: number | null;
  currencies: CurrencyFigures[];
  /** What the numbers say against the control, once a verdict may be given. */
  verdict: string | null;
}

export interface ExperimentReport {
  includeTest: boolean;
  days: number;
  arms: ArmFigures[];
  srm: SampleRatioCheck;
  gate: VerdictGate;
  /** The cap applied per market, in its currency's minor units, where orders were capped. */
  caps: { market: string; currency: string; capMinor: number }[];
}

const unpaid: readonly OrderStatus[] = ["pending_payment", "payment_failed", "cancelled"];
const currencyOf = new Map<string, string>(markets.map((market) => [market.country, market.currency]));
const currencyOrder = [...new Set(markets.map((market) => market.currency))] as string[];

const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

function sayOf(interval: Interval | null, what: string): string | null {
  if (!interval) return null;
  if (interval.lower > 0) return `${what} higher than the control`;
  if (interval.upper < 0) return `${what} lower than the control`;
  return null;
}

export async function experimentReport(db: Queryable, experiment: Experiment, options: { includeTest: boolean; now?: Date }): Promise<ExperimentReport> {
  const now = options.now ?? new Date();
  const upsellPrefix = upsellSource("");
  const [counts, orderRows] = await Promise.all([
    db
      .select({ arm: experimentCounts.arm, market: experimentCounts.market, step: experimentCounts.step, count: sql<number>`sum(${experimentCounts.count})::int` })
      .from(experimentCounts)
      .where(eq(experimentCounts.experimentKey, experiment.key))
      .groupBy(experimentCounts.arm, experimentCounts.market, experimentCounts.step),
    db
      .select({
        xp: orders.experimentArm,
        market: orders.market,
        currency: orders.currency,
        status: orders.status,
        totalMinor: orders.totalMinor,
        // Drizzle writes selected columns without their table, so the correlated subqueries name theirs.
        refundedMinor: sql<number>`coalesce((select sum(r.amount_minor) from refunds r where r.order_id = "orders"."id" and r.status = 'succeeded'), 0)::float8`,
        tookUpsell: sql<boolean>`exists (select 1 from order_lines l where l.order_id = "orders"."id" and l.source like ${`${upsellPrefix}%`})`,
        shownUpsell: sql<boolean>`exists (select 1 from order_events e where e.order_id = "orders"."id" and e.type = 'upsell_shown')`,
      })
      .from(orders)
      .where(and(like(orders.experimentArm, `${experiment.key}.%`), options.includeTest ? undefined : eq(orders.test, false))),
  ]);

  const arms = experiment.arms.map((row, arm) => ({
    arm,
    row,
    visitorsByMarket: new Map<string, number>(),
    views: {} as Record<string, number>,
    started: 0,
    paid: [] as { market: string; currency: string; net: number; capped: number; tookUpsell: boolean; shownUpsell: boolean }[],
  }));
  for (const count of counts) {
    const arm = arms[count.arm];
    if (!arm) continue;
    if (count.step === exposureStep) arm.visitorsByMarket.set(count.market, (arm.visitorsByMarket.get(count.market) ?? 0) + count.count);
    else arm.views[count.step] = (arm.views[count.step] ?? 0) + count.count;
  }
  for (const order of orderRows) {
    const arm = arms[parseXp(order.xp)?.arm ?? -1];
    if (!arm) continue;
    arm.started += 1;
    if (unpaid.includes(order.status)) continue;
    arm.paid.push({
      market: order.market,
      currency: order.currency,
      net: Math.max(0, order.totalMinor - Number(order.refundedMinor)),
      capped: 0,
      tookUpsell: order.tookUpsell,
      shownUpsell: order.shownUpsell || order.tookUpsell,
    });
  }

  // One cap per market over every arm's orders, so each arm is capped alike.
  const allPaid = arms.flatMap((arm) => arm.paid);
  capPerGroup(allPaid, (order) => order.market, (order) => order.net).forEach((value, index) => {
    const order = allPaid[index];
    if (order) order.capped = value;
  });
  const caps = [...new Set(allPaid.map((order) => order.market))]
    .map((market) => ({ market, currency: currencyOf.get(market) ?? "", capMinor: Math.max(...allPaid.filter((order) => order.market === market).map((order) => order.capped)) }))
    .filter(({ market, capMinor }) => allPaid.some((order) => order.market === market && order.net > capMinor));

  const visitorsOf = (arm: (typeof arms)[number], currency?: string) =>
    [...arm.visitorsByMarket].filter(([market]) => currency === undefined || currencyOf.get(market) === currency).reduce((sum, [, count]) => sum + count, 0);
  const currencies = [...new Set([...arms.flatMap((arm) => [...arm.visitorsByMarket.keys()].map((market) => currencyOf.get(market) ?? "")), ...allPaid.map((order) => order.currency)])]
    .filter((currency) => currency !== "")
    .sort((a, b) => currencyOrder.indexOf(a) - currencyOrder.indexOf(b));
  const revenueSampleOf = (arm: (typeof arms)[number], currency: string) =>
    revenueSample(
      arm.paid.filter((order) => order.currency === currency).map((order) => order.capped),
      visitorsOf(arm, currency),
    );
  const [control] = arms;
  if (!control) throw new Error("An experiment has at least two arms");
  const days = experiment.startedAt ? ((experiment.stoppedAt ?? now).getTime() - experiment.startedAt.getTime()) / 86_400_000 : 0;
  const gate = verdictGate(days, arms.map((arm) => arm.paid.length));

  const figures = arms.map((arm): ArmFigures => {
    const visitors = visitorsOf(arm);
    const isControl = arm.arm === 0;
    const conversionDifference = isControl ? null : sequentialDifference(proportionSample(control.paid.length, visitorsOf(control)), proportionSample(arm.paid.length, visitors));
    const upsellShown = arm.paid.filter((order) => order.shownUpsell).length;
    const upsellTaken = arm.paid.filter((order) => order.tookUpsell).length;
    const byCurrency = currencies.map((currency): CurrencyFigures => {
      const paid = arm.paid.filter((order) => order.currency === currency);
      const revenueMinor = paid.reduce((sum, order) => sum + order.capped, 0);
      const currencyVisitors = visitorsOf(arm, currency);
      return {
        currency,
        visitors: currencyVisitors,
        orders: paid.length,
        revenueMinor: Math.round(revenueMinor),
        averageOrderValueMinor: paid.length > 0 ? Math.round(revenueMinor / paid.length) : null,
        revenuePerVisitorMinor: ratio(revenueMinor, currencyVisitors),
        difference: isControl ? null : sequentialDifference(revenueSampleOf(control, currency), revenueSampleOf(arm, currency)),
      };
    });
    const findings = gate.ready && !isControl
      ? [sayOf(conversionDifference, "Conversion is"), ...byCurrency.map((figures) => sayOf(figures.difference, `Revenue per visitor in ${figures.currency} is`))].filter((text) => text !== null)
      : [];
    return {
      arm: arm.arm,
      path: arm.row.path,
      weight: arm.row.weight,
      visitors,
      views: arm.views,
      checkoutsStarted: arm.started,
      orders: arm.paid.length,
      conversion: ratio(arm.paid.length, visitors),
      conversionDifference,
      upsellShown,
      upsellTaken,
      upsellTakeRate: ratio(upsellTaken, upsellShown),
      currencies: byCurrency,
      verdict: gate.ready && !isControl ? (findings.length > 0 ? `${findings.join("; ")}.` : "No difference to the control shown yet.") : null,
    };
  });

  return {
    includeTest: options.includeTest,
    days,
    arms: figures,
    srm: sampleRatioCheck(figures.map((arm) => arm.visitors), experiment.arms.map((arm) => arm.weight)),
    gate,
    caps,
  };
}
