import { and, eq, isNotNull, isNull, like, notInArray, sql } from "drizzle-orm";
import type { Queryable } from "../db/database.server";
import { experimentCounts, type PrimaryMetric } from "./schema";
import { orderEventType } from "../orders/order-events";
import { orders } from "../orders/schema";
import { unpaidStatuses } from "../orders/order-status";
import { markets } from "../market/markets";
import { bumpLineSource } from "../orders/order-service.server";
import { upsellSource } from "../orders/upsell-service.server";
import { parseXp } from "./experiment-model";
import { exposureStep, type Experiment } from "./experiments.server";
import { assignedAtOf } from "./exposure-token.server";
import {
  capPerGroup,
  holmRejections,
  proportionSample,
  revenueSample,
  sampleRatioCheck,
  sequentialDifference,
  sequentialLift,
  sequentialPValue,
  sequentialRatioDifference,
  verdictGate,
  type Interval,
  type RatioSums,
  type SampleRatioCheck,
  type VerdictGate,
} from "./statistics.server";

/**
 * A split test's report per arm (docs/decisions/0028-split-tests.md, 0035-exposure-tokens.md):
 * - visitors: assignments made (exposures), one per visit sent to the arm, in the market of the
 *   arm's page; crawlers never count.
 * - orders: paid orders that carried a valid exposure token of the arm (refunded and withdrawn ones
 *   were sales), at most one per token, placed while the test ran by a visitor exposed while it
 *   ran; conversion = orders ÷ visitors.
 * - revenue: per order its total less what was refunded, capped at the 99.9th percentile of the
 *   test's orders in its market; per currency only, never added across currencies. Average order
 *   value = revenue ÷ orders; revenue per visitor = revenue ÷ visitors of the markets that pay in
 *   that currency.
 * - upsell take rate: orders that took an upsell ÷ orders that were shown one.
 * - the difference to the control of each (and the relative lift of conversion and revenue per
 *   visitor, delta method), with GrowthBook's asymptotic confidence sequence (valid however often
 *   the report is looked at), and the sample-ratio check of the visitors against the weights.
 * - no rate and no comparison where the orders outnumber the visitors, on either side (overall
 *   for conversion and upsells, per currency for revenue and order value): the counts are wrong then.
 * - a verdict on the test's primary metric alone, Holm-Bonferroni across the arms (and currencies),
 *   only after 7 days and 30 orders per arm and never while the sample-ratio check alerts.
 */

export interface CurrencyFigures {
  currency: string;
  visitors: number;
  orders: number;
  /** Net of refunds and capped, in minor units. */
  revenueMinor: number;
  averageOrderValueMinor: number | null;
  /** Arm minus control, in minor units per order; null for the control or too little data. */
  averageOrderValueDifference: Interval | null;
  /** Minor units per visitor, unrounded (cents per visitor are often fractions). */
  revenuePerVisitorMinor: number | null;
  /** Arm minus control, in minor units per visitor; null for the control or too little data. */
  difference: Interval | null;
  /** Arm ÷ control − 1 of revenue per visitor. */
  lift: Interval | null;
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
  /** Null when there is no visitor, or when the counts cannot be a rate (see `problem`). */
  conversion: number | null;
  /** Arm minus control, as a proportion; null for the control or too little data. */
  conversionDifference: Interval | null;
  /** Arm ÷ control − 1 of conversion. */
  conversionLift: Interval | null;
  upsellShown: number;
  upsellTaken: number;
  upsellTakeRate: number | null;
  upsellTakeRateDifference: Interval | null;
  /** Paid orders that took the checkout's add-on (order bump), of the arm's paid orders. */
  bumpTaken: number;
  bumpTakeRate: number | null;
  bumpTakeRateDifference: Interval | null;
  currencies: CurrencyFigures[];
  /** Why this arm's figures are not rates, when they are not (more orders than visitors). */
  problem: string | null;
  /** What the primary metric says against the control, once a verdict may be given. */
  verdict: string | null;
}

export interface ExperimentReport {
  includeTest: boolean;
  primaryMetric: PrimaryMetric;
  /** How many comparisons the verdict's Holm-Bonferroni corrects for: arms, times currencies for revenue. */
  comparisons: number;
  /** Paid orders with an arm of the test and no token (placed before tokens existed): left out, while their visitors count. */
  ordersWithoutToken: number;
  /** Orders that carried a valid token of the test but do not count: placed before or after it ran, or a second order of one exposure. */
  ordersLeftOut: number;
  days: number;
  arms: ArmFigures[];
  srm: SampleRatioCheck;
  gate: VerdictGate;
  /** The cap applied per market, in its currency's minor units, where orders were capped. */
  caps: { market: string; currency: string; capMinor: number }[];
}

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
  const [counts, orderRows, [withoutToken]] = await Promise.all([
    db
      .select({ arm: experimentCounts.arm, market: experimentCounts.market, step: experimentCounts.step, count: sql<number>`sum(${experimentCounts.count})::int` })
      .from(experimentCounts)
      .where(eq(experimentCounts.experimentKey, experiment.key))
      .groupBy(experimentCounts.arm, experimentCounts.market, experimentCounts.step),
    db
      .select({
        xp: orders.experimentArm,
        token: orders.experimentToken,
        createdAt: orders.createdAt,
        market: orders.market,
        currency: orders.currency,
        status: orders.status,
        totalMinor: orders.totalMinor,
        // Drizzle writes selected columns without their table, so the correlated subqueries name theirs.
        refundedMinor: sql<number>`coalesce((select sum(r.amount_minor) from refunds r where r.order_id = "orders"."id" and r.status = 'succeeded'), 0)::float8`,
        tookUpsell: sql<boolean>`exists (select 1 from order_lines l where l.order_id = "orders"."id" and l.source like ${`${upsellPrefix}%`})`,
        tookBump: sql<boolean>`exists (select 1 from order_lines l where l.order_id = "orders"."id" and l.source = ${bumpLineSource})`,
        shownUpsell: sql<boolean>`exists (select 1 from order_events e where e.order_id = "orders"."id" and e.type = ${orderEventType.upsellShown})`,
      })
      .from(orders)
      .where(and(like(orders.experimentArm, `${experiment.key}.%`), isNotNull(orders.experimentToken), options.includeTest ? undefined : eq(orders.test, false)))
      .orderBy(orders.createdAt, orders.id),
    // Orders kept with an arm and no token were placed before tokens existed: they count for no arm.
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(orders)
      .where(and(like(orders.experimentArm, `${experiment.key}.%`), isNull(orders.experimentToken), notInArray(orders.status, [...unpaidStatuses]), options.includeTest ? undefined : eq(orders.test, false))),
  ]);

  const arms = experiment.arms.map((row, arm) => ({
    arm,
    row,
    visitorsByMarket: new Map<string, number>(),
    views: {} as Record<string, number>,
    started: 0,
    paid: [] as { market: string; currency: string; net: number; capped: number; tookUpsell: boolean; shownUpsell: boolean; tookBump: boolean }[],
  }));
  for (const count of counts) {
    const arm = arms[count.arm];
    if (!arm) continue;
    if (count.step === exposureStep) arm.visitorsByMarket.set(count.market, (arm.visitorsByMarket.get(count.market) ?? 0) + count.count);
    else arm.views[count.step] = (arm.views[count.step] ?? 0) + count.count;
  }
  // An order counts only inside the test's run, from an exposure made in it, and once per exposure.
  const ranFrom = experiment.startedAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const ranUntil = experiment.stoppedAt?.getTime() ?? Number.POSITIVE_INFINITY;
  const during = (time: number | undefined) => time !== undefined && time >= ranFrom && time <= ranUntil;
  const startedTokens = new Set<string>();
  const paidTokens = new Set<string>();
  let ordersLeftOut = 0;
  for (const order of orderRows) {
    const arm = arms[parseXp(order.xp)?.arm ?? -1];
    if (!arm || !order.token) continue;
    const paid = !unpaidStatuses.includes(order.status);
    if (!during(assignedAtOf(order.token)?.getTime()) || !during(order.createdAt.getTime()) || (paid && paidTokens.has(order.token))) {
      ordersLeftOut += 1;
      continue;
    }
    if (!startedTokens.has(order.token)) arm.started += 1;
    startedTokens.add(order.token);
    if (!paid) continue;
    paidTokens.add(order.token);
    arm.paid.push({
      market: order.market,
      currency: order.currency,
      net: Math.max(0, order.totalMinor - Number(order.refundedMinor)),
      capped: 0,
      tookUpsell: order.tookUpsell,
      shownUpsell: order.shownUpsell || order.tookUpsell,
      tookBump: order.tookBump,
    });
  }

  // One cap per market over every arm's orders, so each arm is capped alike.
  const allPaid = arms.flatMap((arm) => arm.paid);
  capPerGroup(allPaid, (order) => order.market, (order) => order.net).forEach((value, index) => {
    const order = allPaid[index];
    if (order) order.capped = value;
  });
  // In the markets' order, not the orders': orders made in the same millisecond come in any order.
  const caps = markets
    .map((market) => market.country as string)
    .filter((market) => allPaid.some((order) => order.market === market))
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
  const srm = sampleRatioCheck(arms.map((arm) => visitorsOf(arm)), experiment.arms.map((arm) => arm.weight));
  const gate = verdictGate(days, arms.map((arm) => arm.paid.length), srm.alert);

  const paidIn = (arm: (typeof arms)[number], currency?: string) => (currency === undefined ? arm.paid : arm.paid.filter((order) => order.currency === currency));
  /**
   * Orders beyond visitors are not a rate: their samples would have a negative variance. One guard
   * for every sample: overall for conversion and upsells, per currency for revenue and order value.
   */
  const countable = (arm: (typeof arms)[number], currency?: string) => paidIn(arm, currency).length <= visitorsOf(arm, currency);
  /** Whether an arm may be compared with the control: neither side has more orders than visitors. */
  const comparable = (arm: (typeof arms)[number], currency?: string) => countable(control, currency) && countable(arm, currency);
  const problemOf = (arm: (typeof arms)[number]) => {
    const why = "more orders than visitors is no rate, so this arm's exposures were not all counted.";
    if (!countable(arm)) return `${arm.paid.length} orders from ${visitorsOf(arm)} visitors: ${why}`;
    const currency = currencies.find((candidate) => !countable(arm, candidate));
    return currency ? `${paidIn(arm, currency).length} orders in ${currency} from ${visitorsOf(arm, currency)} visitors of the markets that pay in ${currency}: ${why}` : null;
  };
  const conversionSampleOf = (arm: (typeof arms)[number]) => proportionSample(arm.paid.length, visitorsOf(arm));
  /** A comparison with the control, or null when either side's counts are no rate. */
  const versus = <R>(arm: (typeof arms)[number], currency: string | undefined, compare: () => R | null) => (comparable(arm, currency) ? compare() : null);
  const orderValueSums = (arm: (typeof arms)[number], currency: string): RatioSums => {
    const amounts = arm.paid.filter((order) => order.currency === currency).map((order) => order.capped);
    const sumX = amounts.reduce((sum, amount) => sum + amount, 0);
    return { n: visitorsOf(arm, currency), sumX, sumY: amounts.length, sumXX: amounts.reduce((sum, amount) => sum + amount * amount, 0), sumYY: amounts.length, sumXY: sumX };
  };
  const upsellSums = (arm: (typeof arms)[number]): RatioSums => {
    const taken = arm.paid.filter((order) => order.tookUpsell).length;
    const shown = arm.paid.filter((order) => order.shownUpsell).length;
    return { n: visitorsOf(arm), sumX: taken, sumY: shown, sumXX: taken, sumYY: shown, sumXY: taken };
  };
  /** The add-on's take rate: orders that took it ÷ paid orders, per visitor as the upsell's. */
  const bumpSums = (arm: (typeof arms)[number]): RatioSums => {
    const taken = arm.paid.filter((order) => order.tookBump).length;
    const paid = arm.paid.length;
    return { n: visitorsOf(arm), sumX: taken, sumY: paid, sumXX: taken, sumYY: paid, sumXY: taken };
  };

  // The primary metric's comparisons, one per arm (and currency): Holm-Bonferroni over all of them.
  const comparisons = arms.slice(1).flatMap((arm) =>
    experiment.primaryMetric === "conversion"
      ? [{ arm: arm.arm, what: "Conversion is", p: versus(arm, undefined, () => sequentialPValue(conversionSampleOf(control), conversionSampleOf(arm))), currency: undefined as string | undefined }]
      : currencies.map((currency) => ({ arm: arm.arm, what: `Revenue per visitor in ${currency} is`, p: versus(arm, currency, () => sequentialPValue(revenueSampleOf(control, currency), revenueSampleOf(arm, currency))), currency })),
  );
  const rejected = holmRejections(comparisons.map((comparison) => comparison.p));

  const figures = arms.map((arm): ArmFigures => {
    const visitors = visitorsOf(arm);
    const isControl = arm.arm === 0;
    const problem = problemOf(arm);
    const conversionDifference = isControl ? null : versus(arm, undefined, () => sequentialDifference(conversionSampleOf(control), conversionSampleOf(arm)));
    const upsellShown = arm.paid.filter((order) => order.shownUpsell).length;
    const upsellTaken = arm.paid.filter((order) => order.tookUpsell).length;
    const bumpTaken = arm.paid.filter((order) => order.tookBump).length;
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
        averageOrderValueDifference: isControl ? null : versus(arm, currency, () => sequentialRatioDifference(orderValueSums(control, currency), orderValueSums(arm, currency))),
        revenuePerVisitorMinor: countable(arm, currency) ? ratio(revenueMinor, currencyVisitors) : null,
        difference: isControl ? null : versus(arm, currency, () => sequentialDifference(revenueSampleOf(control, currency), revenueSampleOf(arm, currency))),
        lift: isControl ? null : versus(arm, currency, () => sequentialLift(revenueSampleOf(control, currency), revenueSampleOf(arm, currency))),
      };
    });
    const intervalOf = (currency: string | undefined) =>
      currency === undefined ? conversionDifference : (byCurrency.find((figures) => figures.currency === currency)?.difference ?? null);
    const findings = comparisons
      .map((comparison, index) => ({ ...comparison, rejected: rejected[index] }))
      .filter((comparison) => comparison.arm === arm.arm && comparison.rejected)
      .map((comparison) => sayOf(intervalOf(comparison.currency), comparison.what))
      .filter((text) => text !== null);
    return {
      arm: arm.arm,
      path: arm.row.path,
      weight: arm.row.weight,
      visitors,
      views: arm.views,
      checkoutsStarted: arm.started,
      orders: arm.paid.length,
      conversion: countable(arm) ? ratio(arm.paid.length, visitors) : null,
      conversionDifference,
      conversionLift: isControl ? null : versus(arm, undefined, () => sequentialLift(conversionSampleOf(control), conversionSampleOf(arm))),
      upsellShown,
      upsellTaken,
      upsellTakeRate: ratio(upsellTaken, upsellShown),
      upsellTakeRateDifference: isControl ? null : versus(arm, undefined, () => sequentialRatioDifference(upsellSums(control), upsellSums(arm))),
      bumpTaken,
      bumpTakeRate: ratio(bumpTaken, arm.paid.length),
      bumpTakeRateDifference: isControl ? null : versus(arm, undefined, () => sequentialRatioDifference(bumpSums(control), bumpSums(arm))),
      currencies: byCurrency,
      problem,
      verdict: gate.ready && !isControl ? (findings.length > 0 ? `${findings.join("; ")}.` : "No difference to the control shown yet.") : null,
    };
  });

  return { includeTest: options.includeTest, primaryMetric: experiment.primaryMetric, comparisons: comparisons.length, ordersWithoutToken: withoutToken?.count ?? 0, ordersLeftOut, days, arms: figures, srm, gate, caps };
}
