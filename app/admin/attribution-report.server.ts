import { and, asc, desc, eq, gte, lt, lte, notInArray, or, sql, type SQL } from "drizzle-orm";
import { stringify } from "csv-stringify/sync";
import type { Queryable } from "../db/database.server";
import { orderTouches, touchViews } from "../attribution/schema";
import { orderLines, orders, refunds } from "../orders/schema";
import { unpaidStatuses } from "../orders/order-status";
import { bumpLineSource } from "../orders/order-service.server";
import { upsellSource } from "../orders/upsell-service.server";
import { markets } from "../market/markets";

/**
 * The attribution report (docs/decisions/0045-the-touch-of-a-visit.md): per source, medium and
 * campaign, opening to content, what the visits of each touch turned into. Page views are read
 * from their counts per touch, orders with the touch stored when they were placed; each with one
 * grouped query, so the database does the counting however many orders there are.
 *
 * Definitions, as the funnel report's (docs/decisions/0017-funnel-counting.md) where they meet:
 * - visits: the page views of the row's entry step (its busiest step before the checkout:
 *   landing, quiz, summary or offer), views and not people;
 * - checkouts: orders created in the range; orders: orders paid in the range and not cancelled
 *   since (refunded and withdrawn orders were sales); conversion: orders ÷ visits;
 * - revenue, per currency and never added across currencies: the orders' totals, upsells
 *   included, minus the refunds that succeeded; average order value: the totals before refunds ÷
 *   orders, rounded to whole minor units;
 * - upsell, bump and refund rates: orders that took an upsell, that had the checkout's add-on
 *   ticked, that were refunded in part or whole, ÷ orders.
 * Orders placed before touches were kept have the source `unknown`. Test orders are left out unless
 * asked for. Days are UTC, both ends included; a ratio with nothing to divide by is null.
 */

export interface AttributionInput {
  /** First and last day, both included: `2026-11-01`. */
  from: string;
  to: string;
  includeTest?: boolean;
}

export interface CurrencyTakings {
  currency: string;
  orders: number;
  /** The orders' totals minus what was refunded, in minor units. */
  revenueNetMinor: number;
  averageOrderValueMinor: number | null;
}

export interface AttributionFigures {
  visits: number;
  checkouts: number;
  orders: number;
  conversion: number | null;
  /** One entry per currency with orders, in the markets' order. */
  currencies: CurrencyTakings[];
  upsellTakeRate: number | null;
  bumpTakeRate: number | null;
  refundRate: number | null;
}

export interface AttributionRow extends AttributionFigures {
  source: string;
  medium: string;
  campaign: string;
  /** The row's touches by `utm_content` (`""` when none). */
  contents: (AttributionFigures & { content: string })[];
}

export interface AttributionReport {
  from: string;
  to: string;
  includeTest: boolean;
  /** Busiest first (orders, then visits). */
  rows: AttributionRow[];
  /** Whether page views were left out: only the busiest `maxViewGroups` groups are read. */
  viewsCut: boolean;
}

/**
 * How many groups of page views (source, medium, campaign, content, step) the report reads, the
 * busiest first. The beacon is public, so the counts could hold any number of made-up touches;
 * the report must not load them all.
 */
export const maxViewGroups = 2000;

const entrySteps = ["landing", "quiz", "summary", "offer"];
const currencyOrder = [...new Set(markets.map((market) => market.currency))] as string[];

/** What one content of one campaign counted; cells add up into the campaign's row. */
interface Cell {
  views: Map<string, number>;
  checkouts: number;
  paid: Map<string, { orders: number; totals: number; refunded: number }>;
  upsold: number;
  bumped: number;
  refundedOrders: number;
}

const emptyCell = (): Cell => ({ views: new Map(), checkouts: 0, paid: new Map(), upsold: 0, bumped: 0, refundedOrders: 0 });
const ratio = (part: number, whole: number): number | null => (whole > 0 ? part / whole : null);

function mergeInto(target: Cell, cell: Cell): void {
  for (const [step, views] of cell.views) target.views.set(step, (target.views.get(step) ?? 0) + views);
  for (const [currency, paid] of cell.paid) {
    const into = target.paid.get(currency) ?? { orders: 0, totals: 0, refunded: 0 };
    target.paid.set(currency, { orders: into.orders + paid.orders, totals: into.totals + paid.totals, refunded: into.refunded + paid.refunded });
  }
  target.checkouts += cell.checkouts;
  target.upsold += cell.upsold;
  target.bumped += cell.bumped;
  target.refundedOrders += cell.refundedOrders;
}

function figuresOf(cell: Cell): AttributionFigures {
  const visits = Math.max(0, ...entrySteps.map((step) => cell.views.get(step) ?? 0));
  const orderCount = [...cell.paid.values()].reduce((sum, paid) => sum + paid.orders, 0);
  const currencies = [...cell.paid]
    .filter(([, paid]) => paid.orders > 0)
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([currency, paid]) => ({
      currency,
      orders: paid.orders,
      revenueNetMinor: paid.totals - paid.refunded,
      averageOrderValueMinor: paid.orders > 0 ? Math.round(paid.totals / paid.orders) : null,
    }));
  return {
    visits,
    checkouts: cell.checkouts,
    orders: orderCount,
    conversion: ratio(orderCount, visits),
    currencies,
    upsellTakeRate: ratio(cell.upsold, orderCount),
    bumpTakeRate: ratio(cell.bumped, orderCount),
    refundRate: ratio(cell.refundedOrders, orderCount),
  };
}

function rank(currency: string): number {
  const index = currencyOrder.indexOf(currency);
  return index === -1 ? currencyOrder.length : index;
}

export async function attributionReport(db: Queryable, input: AttributionInput): Promise<AttributionReport> {
  const includeTest = input.includeTest ?? false;
  const start = new Date(`${input.from}T00:00:00Z`);
  const end = new Date(Date.parse(`${input.to}T00:00:00Z`) + 86_400_000);
  const created = and(gte(orders.createdAt, start), lt(orders.createdAt, end)) as SQL;
  const paid = and(gte(orders.paidAt, start), lt(orders.paidAt, end), notInArray(orders.status, [...unpaidStatuses])) as SQL;
  // Literal SQL, not parameters: the same expression must appear in the select and the group by.
  const source = sql<string>`coalesce(${orderTouches.source}, 'unknown')`;
  const medium = sql<string>`coalesce(${orderTouches.medium}, 'unknown')`;
  const campaign = sql<string>`coalesce(${orderTouches.campaign}, '')`;
  const content = sql<string>`coalesce(${orderTouches.content}, '')`;
  // What each order was given back, and which extra lines it has, each read once and joined by the
  // order's id: a subquery per order would run as many times as there are orders.
  const given = db
    .select({ orderId: refunds.orderId, minor: sql<number>`sum(${refunds.amountMinor})`.as("given_minor") })
    .from(refunds)
    .where(and(eq(refunds.status, "succeeded"), eq(refunds.kind, "order")))
    .groupBy(refunds.orderId)
    .as("given");
  const extras = db
    .select({
      orderId: orderLines.orderId,
      upsold: sql<boolean>`bool_or(${orderLines.source} like ${`${upsellSource("")}%`})`.as("upsold"),
      bumped: sql<boolean>`bool_or(${orderLines.source} = ${bumpLineSource})`.as("bumped"),
    })
    .from(orderLines)
    .where(sql`${orderLines.source} <> 'checkout'`)
    .groupBy(orderLines.orderId)
    .as("extras");
  const refunded = sql`coalesce(${given.minor}, 0)`;

  const viewCount = sql<number>`sum(${touchViews.views})::float8`;
  const [viewGroups, orderRows] = await Promise.all([
    db
      .select({
        source: touchViews.source,
        medium: touchViews.medium,
        campaign: touchViews.campaign,
        content: touchViews.content,
        step: touchViews.step,
        views: viewCount,
      })
      .from(touchViews)
      .where(and(gte(touchViews.day, input.from), lte(touchViews.day, input.to)))
      .groupBy(touchViews.source, touchViews.medium, touchViews.campaign, touchViews.content, touchViews.step)
      .orderBy(desc(viewCount), asc(touchViews.source), asc(touchViews.medium), asc(touchViews.campaign), asc(touchViews.content), asc(touchViews.step))
      .limit(maxViewGroups + 1),
    db
      .select({
        source,
        medium,
        campaign,
        content,
        currency: orders.currency,
        checkouts: sql<number>`(count(*) filter (where ${created}))::int`,
        orders: sql<number>`(count(*) filter (where ${paid}))::int`,
        totals: sql<number>`coalesce(sum(${orders.totalMinor}) filter (where ${paid}), 0)::float8`,
        refunded: sql<number>`coalesce(sum(${refunded}) filter (where ${paid}), 0)::float8`,
        refundedOrders: sql<number>`(count(*) filter (where ${paid} and ${refunded} > 0))::int`,
        upsold: sql<number>`(count(*) filter (where ${paid} and ${extras.upsold}))::int`,
        bumped: sql<number>`(count(*) filter (where ${paid} and ${extras.bumped}))::int`,
      })
      .from(orders)
      .leftJoin(orderTouches, eq(orderTouches.orderId, orders.id))
      .leftJoin(given, eq(given.orderId, orders.id))
      .leftJoin(extras, eq(extras.orderId, orders.id))
      .where(and(or(created, paid), includeTest ? undefined : eq(orders.test, false)))
      .groupBy(source, medium, campaign, content, orders.currency),
  ]);

  const campaigns = new Map<string, { source: string; medium: string; campaign: string; contents: Map<string, Cell> }>();
  const cellOf = (row: { source: string; medium: string; campaign: string; content: string }): Cell => {
    const key = JSON.stringify([row.source, row.medium, row.campaign]);
    const found = campaigns.get(key) ?? { source: row.source, medium: row.medium, campaign: row.campaign, contents: new Map<string, Cell>() };
    campaigns.set(key, found);
    const cell = found.contents.get(row.content) ?? emptyCell();
    found.contents.set(row.content, cell);
    return cell;
  };
  const viewsCut = viewGroups.length > maxViewGroups;
  for (const row of viewGroups.slice(0, maxViewGroups)) {
    const cell = cellOf(row);
    cell.views.set(row.step, (cell.views.get(row.step) ?? 0) + Number(row.views));
  }
  for (const row of orderRows) {
    const cell = cellOf(row);
    cell.checkouts += row.checkouts;
    cell.upsold += row.upsold;
    cell.bumped += row.bumped;
    cell.refundedOrders += row.refundedOrders;
    if (row.orders > 0) {
      const before = cell.paid.get(row.currency) ?? { orders: 0, totals: 0, refunded: 0 };
      cell.paid.set(row.currency, { orders: before.orders + row.orders, totals: before.totals + Number(row.totals), refunded: before.refunded + Number(row.refunded) });
    }
  }

  const rows = [...campaigns.values()].map(({ source, medium, campaign, contents }): AttributionRow => {
    const total = emptyCell();
    for (const cell of contents.values()) mergeInto(total, cell);
    return {
      source,
      medium,
      campaign,
      ...figuresOf(total),
      contents: [...contents].map(([content, cell]) => ({ content, ...figuresOf(cell) })).sort((a, b) => b.orders - a.orders || b.visits - a.visits || a.content.localeCompare(b.content)),
    };
  });
  rows.sort((a, b) => b.orders - a.orders || b.visits - a.visits || a.source.localeCompare(b.source) || a.medium.localeCompare(b.medium) || a.campaign.localeCompare(b.campaign));
  return { from: input.from, to: input.to, includeTest, rows, viewsCut };
}

const share = (value: number | null) => (value === null ? "" : value.toFixed(4));

/**
 * The report as CSV: one line per source, medium, campaign and content, and per currency that
 * took money (a line without orders has an empty currency); amounts in minor units, rates as
 * fractions. Counts that are not per currency repeat on each of a content's currency lines.
 */
export function attributionCsv(report: AttributionReport): string {
  const header = ["source", "medium", "campaign", "content", "visits", "checkouts", "orders", "conversion", "currency", "currency_orders", "revenue_net_minor", "average_order_value_minor", "upsell_take_rate", "bump_take_rate", "refund_rate"];
  const lines = report.rows.flatMap((row) =>
    row.contents.flatMap((content) => {
      const common = [row.source, row.medium, row.campaign, content.content, content.visits, content.checkouts, content.orders, share(content.conversion)];
      const rates = [share(content.upsellTakeRate), share(content.bumpTakeRate), share(content.refundRate)];
      const takings = content.currencies.length > 0 ? content.currencies : [null];
      return takings.map((taking) => [...common, taking?.currency ?? "", taking?.orders ?? 0, taking?.revenueNetMinor ?? 0, taking?.averageOrderValueMinor ?? "", ...rates]);
    }),
  );
  // A cell that starts with = + - @ would be read as a formula by a spreadsheet; campaign names come from URLs.
  const safe = (value: string | number) => (typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
  return stringify([header, ...lines.map((line) => line.map(safe))]);
}
