import { and, eq, gte, like, lt, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../db/database.server";
import { experimentCounts } from "../experiments/schema";
import { orderEvents, orderLines, orders } from "../orders/schema";
import { orderEventType } from "../orders/order-events";
import { unpaidStatuses } from "../orders/order-status";
import { bumpLineSource } from "../orders/order-service.server";
import { pageViews } from "../funnel/schema";
import { exposureStep } from "../experiments/experiments.server";
import { parseXp } from "../experiments/experiment-model";
import { funnelSteps, upsellStepOf, type FunnelStep } from "../funnel/funnel-steps";
import { utcDay } from "../funnel/page-views.server";
import { markets } from "../market/markets";
import { upsellSource } from "../orders/upsell-service.server";

/**
 * The funnel report (decision 0017): page views per step from the first-party counts, orders and
 * upsells from the order tables, per variant (`src`) and market and in total. Each source is read
 * with one grouped query; the rows come back per variant, market (and currency), and the totals
 * are sums of those rows, so the database does the counting however many orders there are.
 *
 * Definitions (docs/decisions/0017-funnel-counting.md):
 * - visitors of a step: its page views in the range. Views, not people: a reload or a second
 *   visit counts again, and nothing tells two people apart.
 * - share of the visitors: visitors of the step ÷ visitors of the busiest step, so that every step
 *   is a share of the same visitors and none reads above 100 %. Visitors enter at different steps
 *   (home page, quiz, an ad's offer page), so a step's views divided by the previous step's could
 *   read 283 % and say nothing; the busiest step is the entry step, unless reloads made a later
 *   one busier, and then that one is the base, never a smaller one.
 * - entry step: the busiest step before the checkout (landing, quiz, summary or offer; the first
 *   of them on a tie), where the row's traffic comes in. Order conversion and revenue per visitor
 *   are per view of it.
 * - checkouts started: orders created in the range (an order is created when the checkout form
 *   is submitted, before payment).
 * - orders paid: orders whose `paid_at` is in the range, whatever happened to them since except
 *   cancellation (refunded and withdrawn orders were sales).
 * - upsell take rate of an upsell page: orders that took it ÷ orders it was shown to, among the
 *   orders paid in the range, each order counted once per page. An order that took an upsell
 *   was shown it, with or without a recorded `upsell_shown` event.
 * - bump take rate: paid orders with the checkout's add-on ticked ÷ orders paid (per split-test
 *   arm when the report is limited to one).
 * - revenue: the paid orders' totals, upsells taken included, refunds not deducted, per currency
 *   (never added across currencies); average order value = revenue ÷ paid orders; revenue per
 *   visitor = revenue ÷ entry-step views in the markets that sell in that currency (their own
 *   entry step: a currency's markets may take their traffic in elsewhere). Both are rounded to
 *   whole minor units.
 * Test orders are left out unless asked for; page views have no test flag and are all counted.
 * Days are UTC, both ends included. A ratio with nothing to divide by is null, never NaN.
 */

export interface FunnelReportInput {
  /** First and last day of the range, both included, in UTC: `2026-11-01`, or a Date (its UTC day). */
  from: Date | string;
  to: Date | string;
  /** One variant only; `""` is the traffic and orders without one. Every variant when absent. */
  src?: string;
  /** One market by its country code (`DE`, `CH-FR`); every market when absent. */
  market?: string;
  /** Count test orders too (a store in test mode has no others). */
  includeTest?: boolean;
  /**
   * One split test's arm (`k3j9x2ab.1`): its orders, and its page views as counted per arm
   * (those carry no variant, so they are reported under `""`).
   */
  arm?: string;
}

export interface StepFigures {
  step: FunnelStep;
  /** Page views of the step in the range. */
  visitors: number;
  /** This step's visitors ÷ the busiest step's, between 0 and 1; null when no step has views. */
  shareOfVisitors: number | null;
}

export interface UpsellFigures {
  /** The upsell page as events and order lines name it (`upsell`, `upsellMind`). */
  page: string;
  /** Its place in the funnel (`upsell-1`); null for a page the funnel no longer has. */
  step: FunnelStep | null;
  /** Paid orders that were offered it. */
  shown: number;
  /** Paid orders that took it. */
  taken: number;
  /** taken ÷ shown. */
  takeRate: number | null;
}

export interface CurrencyFigures {
  currency: string;
  ordersPaid: number;
  /** Sum of the paid orders' totals, in minor units. */
  revenueMinor: number;
  averageOrderValueMinor: number | null;
  /** The entry step of the markets that sell in this currency (their busiest step before the checkout). */
  entryStep: FunnelStep | null;
  /** Its views in those markets. */
  visitors: number;
  revenuePerVisitorMinor: number | null;
}

export interface FunnelFigures {
  /** Every step of the funnel, in order, with zeros where nothing was counted. */
  steps: StepFigures[];
  entryStep: FunnelStep | null;
  entryVisitors: number;
  checkoutsStarted: number;
  ordersPaid: number;
  /** Paid orders ÷ entry-step views. */
  orderConversion: number | null;
  /** The upsell pages shown or taken, in funnel order. */
  upsells: UpsellFigures[];
  /** Paid orders that had the checkout's add-on ticked. */
  bumpTaken: number;
  /** bumpTaken ÷ ordersPaid. */
  bumpTakeRate: number | null;
  /** One entry per currency with visitors or paid orders. */
  currencies: CurrencyFigures[];
}

export interface FunnelReport {
  /** The range as days, both included. */
  from: string;
  to: string;
  src: string | null;
  market: string | null;
  includeTest: boolean;
  /** The split-test arm the report is limited to, if any. */
  arm?: string | null;
  /** The figures for everything the filter selects. */
  total: FunnelFigures;
  /** Per variant (`""`: none), markets added up. */
  bySrc: (FunnelFigures & { src: string })[];
  /** Per market, variants added up. */
  byMarket: (FunnelFigures & { market: string })[];
  /** Per variant and market. */
  rows: (FunnelFigures & { src: string; market: string })[];
}

/** Steps where traffic comes in, before anything is bought. */
const entrySteps: readonly FunnelStep[] = ["landing", "quiz", "summary", "offer"];
const currencyOfMarket = new Map<string, string>(markets.map((market) => [market.country, market.currency]));
const currencyOrder = [...new Set(markets.map((market) => market.currency))] as string[];
const marketOrder = markets.map((market) => market.country) as string[];

/** What one variant in one market counted; cells add up into any total. */
interface Cell {
  /** Page views by the market's currency, then step. */
  views: Map<string, Map<string, number>>;
  started: number;
  paid: Map<string, { orders: number; revenue: number }>;
  upsells: Map<string, { shown: number; taken: number }>;
  /** Paid orders with the checkout's add-on. */
  bumped: number;
}

const emptyCell = (): Cell => ({ views: new Map(), started: 0, paid: new Map(), upsells: new Map(), bumped: 0 });

function addTo<K>(map: Map<K, number>, key: K, amount: number): void {
  map.set(key, (map.get(key) ?? 0) + amount);
}

function mergeInto(target: Cell, cell: Cell): void {
  for (const [currency, steps] of cell.views) {
    const into = target.views.get(currency) ?? new Map<string, number>();
    for (const [step, views] of steps) addTo(into, step, views);
    target.views.set(currency, into);
  }
  target.started += cell.started;
  target.bumped += cell.bumped;
  for (const [currency, paid] of cell.paid) {
    const into = target.paid.get(currency) ?? { orders: 0, revenue: 0 };
    target.paid.set(currency, { orders: into.orders + paid.orders, revenue: into.revenue + paid.revenue });
  }
  for (const [page, upsell] of cell.upsells) {
    const into = target.upsells.get(page) ?? { shown: 0, taken: 0 };
    target.upsells.set(page, { shown: into.shown + upsell.shown, taken: into.taken + upsell.taken });
  }
}

const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);
const perUnit = (amount: number, units: number): number | null => (units > 0 ? Math.round(amount / units) : null);

function figuresOf(cell: Cell): FunnelFigures {
  const viewsOf = (step: string, currency?: string) =>
    [...cell.views].filter(([viewCurrency]) => currency === undefined || viewCurrency === currency).reduce((sum, [, steps]) => sum + (steps.get(step) ?? 0), 0);
  const busiest = Math.max(0, ...funnelSteps.map((step) => viewsOf(step)));
  const steps = funnelSteps.map((step): StepFigures => {
    const visitors = viewsOf(step);
    return { step, visitors, shareOfVisitors: ratio(visitors, busiest) };
  });
  const entryOf = (currency?: string) =>
    entrySteps.reduce<{ step: FunnelStep | null; views: number }>(
      (best, step) => {
        const views = viewsOf(step, currency);
        return views > best.views ? { step, views } : best;
      },
      { step: null, views: 0 },
    );
  const entry = entryOf();
  const ordersPaid = [...cell.paid.values()].reduce((sum, paid) => sum + paid.orders, 0);
  const currencies = [...new Set([...cell.views.keys(), ...cell.paid.keys()])]
    .sort((a, b) => rank(currencyOrder, a) - rank(currencyOrder, b) || a.localeCompare(b))
    .map((currency): CurrencyFigures => {
      const paid = cell.paid.get(currency) ?? { orders: 0, revenue: 0 };
      const { step, views } = entryOf(currency);
      return {
        currency,
        ordersPaid: paid.orders,
        revenueMinor: paid.revenue,
        averageOrderValueMinor: perUnit(paid.revenue, paid.orders),
        entryStep: step,
        visitors: views,
        revenuePerVisitorMinor: perUnit(paid.revenue, views),
      };
    })
    .filter((figures) => figures.visitors > 0 || figures.ordersPaid > 0);
  const upsells = [...cell.upsells]
    .map(([page, { shown, taken }]): UpsellFigures => ({ page, step: upsellStepOf(page), shown, taken, takeRate: ratio(taken, shown) }))
    .sort((a, b) => rank(funnelSteps, a.step ?? "") - rank(funnelSteps, b.step ?? "") || a.page.localeCompare(b.page));
  return {
    steps,
    entryStep: entry.step,
    entryVisitors: entry.views,
    checkoutsStarted: cell.started,
    ordersPaid,
    orderConversion: ratio(ordersPaid, entry.views),
    upsells,
    bumpTaken: cell.bumped,
    bumpTakeRate: ratio(cell.bumped, ordersPaid),
    currencies,
  };
}

/** Place in a fixed order; anything unknown goes last. */
function rank(order: readonly string[], value: string): number {
  const index = order.indexOf(value);
  return index === -1 ? order.length : index;
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

function dayOf(value: Date | string, name: string): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new RangeError(`The report's ${name} is not a valid date`);
    return utcDay(value);
  }
  const moment = new Date(`${value}T00:00:00Z`);
  if (!dayPattern.test(value) || Number.isNaN(moment.getTime()) || utcDay(moment) !== value) {
    throw new RangeError(`The report's ${name} must be a day written YYYY-MM-DD, got "${value}"`);
  }
  return value;
}

export async function funnelReport(db: Queryable, input: FunnelReportInput): Promise<FunnelReport> {
  const from = dayOf(input.from, "start");
  const to = dayOf(input.to, "end");
  if (from > to) throw new RangeError(`The report's start (${from}) is after its end (${to})`);
  const start = new Date(`${from}T00:00:00Z`);
  const end = new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000);
  const includeTest = input.includeTest ?? false;

  // Literal SQL, not parameters: the same expression must appear in the select and the group by.
  const orderSrc = sql<string>`coalesce(${orders.funnelSrc}, '')`;
  const orderFilter = and(
    includeTest ? undefined : eq(orders.test, false),
    input.src === undefined ? undefined : sql`${orderSrc} = ${input.src}`,
    input.market === undefined ? undefined : eq(orders.market, input.market),
    input.arm === undefined ? undefined : eq(orders.experimentArm, input.arm),
  );
  const arm = input.arm === undefined ? null : parseXp(input.arm);
  const created = and(gte(orders.createdAt, start), lt(orders.createdAt, end)) as SQL;
  const paid = and(gte(orders.paidAt, start), lt(orders.paidAt, end), notInArray(orders.status, [...unpaidStatuses])) as SQL;
  const upsellPrefix = upsellSource("");
  const shownPage = sql<string>`(${orderEvents.detail} ->> 'step')`;
  const takenPage = sql<string>`substr(${orderLines.source}, ${sql.raw(String(upsellPrefix.length + 1))})`;

  const [views, orderRows, shownOnly, taken] = await Promise.all([
    arm
      ? db
          .select({ src: sql<string>`''`, market: experimentCounts.market, step: experimentCounts.step, views: sql<number>`sum(${experimentCounts.count})::float8` })
          .from(experimentCounts)
          .where(
            and(
              eq(experimentCounts.experimentKey, arm.key),
              eq(experimentCounts.arm, arm.arm),
              sql`${experimentCounts.step} <> ${exposureStep}`,
              gte(experimentCounts.day, from),
              lte(experimentCounts.day, to),
              input.src ? sql`false` : undefined,
              input.market === undefined ? undefined : eq(experimentCounts.market, input.market),
            ),
          )
          .groupBy(experimentCounts.market, experimentCounts.step)
      : db
      .select({ src: pageViews.src, market: pageViews.market, step: pageViews.step, views: sql<number>`sum(${pageViews.views})::float8` })
      .from(pageViews)
      .where(
        and(
          gte(pageViews.day, from),
          lte(pageViews.day, to),
          input.src === undefined ? undefined : eq(pageViews.src, input.src),
          input.market === undefined ? undefined : eq(pageViews.market, input.market),
        ),
      )
      .groupBy(pageViews.src, pageViews.market, pageViews.step),
    db
      .select({
        src: orderSrc,
        market: orders.market,
        currency: orders.currency,
        started: sql<number>`(count(*) filter (where ${created}))::int`,
        paid: sql<number>`(count(*) filter (where ${paid}))::int`,
        revenue: sql<number>`coalesce(sum(${orders.totalMinor}) filter (where ${paid}), 0)::float8`,
        // The checkout's add-on is the order's second checkout line (the first is the bundle). The
        // correlation is written qualified: a one-table select leaves column names bare.
        bumped: sql<number>`(count(*) filter (where ${paid} and exists (select 1 from ${orderLines} where ${sql.raw('"order_lines"."order_id" = "orders"."id"')} and ${orderLines.source} = ${bumpLineSource})))::int`,
      })
      .from(orders)
      .where(and(or(created, paid), orderFilter))
      .groupBy(orderSrc, orders.market, orders.currency),
    // Orders shown a page they did not take; those that took it are counted from their lines.
    db
      .select({ src: orderSrc, market: orders.market, page: shownPage, orders: sql<number>`count(distinct ${orderEvents.orderId})::int` })
      .from(orderEvents)
      .innerJoin(orders, eq(orders.id, orderEvents.orderId))
      .where(
        and(
          eq(orderEvents.type, orderEventType.upsellShown),
          paid,
          orderFilter,
          sql`not exists (select 1 from ${orderLines} where ${orderLines.orderId} = ${orderEvents.orderId} and ${orderLines.source} = (${upsellPrefix} || ${shownPage}))`,
        ),
      )
      .groupBy(orderSrc, orders.market, shownPage),
    // One line per order and upsell page at most (a unique index), so a count is distinct orders.
    db
      .select({ src: orderSrc, market: orders.market, page: takenPage, orders: sql<number>`count(*)::int` })
      .from(orderLines)
      .innerJoin(orders, eq(orders.id, orderLines.orderId))
      .where(and(like(orderLines.source, `${upsellPrefix}%`), paid, orderFilter))
      .groupBy(orderSrc, orders.market, takenPage),
  ]);

  const cells = new Map<string, { src: string; market: string; cell: Cell }>();
  const cellOf = (src: string, market: string): Cell => {
    const key = JSON.stringify([src, market]);
    const found = cells.get(key) ?? { src, market, cell: emptyCell() };
    cells.set(key, found);
    return found.cell;
  };
  for (const row of views) {
    const currency = currencyOfMarket.get(row.market);
    if (!currency) continue;
    const cell = cellOf(row.src, row.market);
    const steps = cell.views.get(currency) ?? new Map<string, number>();
    addTo(steps, row.step, Number(row.views));
    cell.views.set(currency, steps);
  }
  for (const row of orderRows) {
    const cell = cellOf(row.src, row.market);
    cell.started += row.started;
    cell.bumped += row.bumped;
    if (row.paid > 0) {
      const before = cell.paid.get(row.currency) ?? { orders: 0, revenue: 0 };
      cell.paid.set(row.currency, { orders: before.orders + row.paid, revenue: before.revenue + Number(row.revenue) });
    }
  }
  for (const [rows, takenToo] of [
    [shownOnly, false],
    [taken, true],
  ] as const) {
    for (const row of rows) {
      const upsells = cellOf(row.src, row.market).upsells;
      const before = upsells.get(row.page) ?? { shown: 0, taken: 0 };
      upsells.set(row.page, { shown: before.shown + row.orders, taken: before.taken + (takenToo ? row.orders : 0) });
    }
  }

  const all = [...cells.values()].sort((a, b) => a.src.localeCompare(b.src) || rank(marketOrder, a.market) - rank(marketOrder, b.market));
  const rollUp = <K extends string>(keyOf: (entry: { src: string; market: string }) => K): [K, Cell][] => {
    const groups = new Map<K, Cell>();
    for (const entry of all) {
      const group = groups.get(keyOf(entry)) ?? emptyCell();
      mergeInto(group, entry.cell);
      groups.set(keyOf(entry), group);
    }
    return [...groups];
  };
  const total = emptyCell();
  for (const entry of all) mergeInto(total, entry.cell);

  return {
    from,
    to,
    src: input.src ?? null,
    market: input.market ?? null,
    includeTest,
    arm: input.arm ?? null,
    total: figuresOf(total),
    bySrc: rollUp((entry) => entry.src).map(([src, cell]) => ({ src, ...figuresOf(cell) })),
    byMarket: rollUp((entry) => entry.market)
      .sort(([a], [b]) => rank(marketOrder, a) - rank(marketOrder, b))
      .map(([market, cell]) => ({ market, ...figuresOf(cell) })),
    rows: all.map(({ src, market, cell }) => ({ src, market, ...figuresOf(cell) })),
  };
}
