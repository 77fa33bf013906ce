import { and, desc, eq, notInArray, sql } from "drizzle-orm";
import { termsOf, type StoredCode } from "../codes/codes.server";
import { discountCodes } from "../codes/schema";
import type { Queryable } from "../db/database.server";
import type { CurrencyCode } from "../market/markets";
import { unpaidStatuses } from "./order-status";
import { codeRedemptions, orders, refunds } from "./schema";

/**
 * What each code brought in, for the back office's list of codes. Money is per currency, never
 * added across currencies. An order counts as a sale as the funnel report counts one (a payment
 * date, and not cancelled since); its net revenue is its total, upsells included, minus the
 * refunds that succeeded of what it took, as the order's own page computes what was given back.
 */

export interface CodeMoney {
  currency: CurrencyCode;
  /** What the code took off the orders that kept it. */
  discountMinor: number;
  /** Those orders' totals minus what was refunded of them. */
  netRevenueMinor: number;
}

export interface CodeFigures {
  /** Redemptions kept by paid orders: what the code's limit counts for good. */
  kept: number;
  /** Redemptions held by orders placed and not yet paid (they also count against the limit until released). */
  reserved: number;
  money: CodeMoney[];
}

export interface ListedCode {
  code: StoredCode;
  createdAt: Date;
  figures: CodeFigures;
}

/** Welcome codes are one per visitor: summed, not listed. */
export interface WelcomeFigures extends CodeFigures {
  issued: number;
}

export interface CodeList {
  codes: ListedCode[];
  welcome: WelcomeFigures;
}

const noFigures = (): CodeFigures => ({ kept: 0, reserved: 0, money: [] });

function addInto(figures: CodeFigures, row: { currency: string; kept: number; reserved: number; sales: number; discount: number; net: number }): void {
  figures.kept += row.kept;
  figures.reserved += row.reserved;
  if (row.sales === 0) return;
  const money = figures.money.find((entry) => entry.currency === row.currency);
  if (money) {
    money.discountMinor += row.discount;
    money.netRevenueMinor += row.net;
  } else {
    figures.money.push({ currency: row.currency as CurrencyCode, discountMinor: row.discount, netRevenueMinor: row.net });
  }
}

/**
 * Every code operators created (newest first) with its figures, and the welcome codes' figures
 * together. Test orders are left out unless `includeTest` (a store in test mode has no others).
 */
export async function listCodesWithFigures(db: Queryable, options: { includeTest: boolean }): Promise<CodeList> {
  const given = db
    .select({ orderId: refunds.orderId, amount: sql<number>`sum(${refunds.amountMinor})`.as("given_minor") })
    .from(refunds)
    .where(and(eq(refunds.status, "succeeded"), eq(refunds.kind, "order")))
    .groupBy(refunds.orderId)
    .as("given");
  const keptSale = and(eq(codeRedemptions.status, "kept"), notInArray(orders.status, [...unpaidStatuses]), sql`${orders.paidAt} is not null`);

  const [codeRows, figureRows, [issued]] = await Promise.all([
    db.select().from(discountCodes).where(eq(discountCodes.welcome, false)).orderBy(desc(discountCodes.createdAt), discountCodes.code),
    db
      .select({
        codeId: codeRedemptions.codeId,
        welcome: discountCodes.welcome,
        currency: codeRedemptions.currency,
        kept: sql<number>`(count(*) filter (where ${codeRedemptions.status} = 'kept'))::int`,
        sales: sql<number>`(count(*) filter (where ${keptSale}))::int`,
        reserved: sql<number>`(count(*) filter (where ${codeRedemptions.status} = 'reserved'))::int`,
        discount: sql<number>`coalesce(sum(${codeRedemptions.discountMinor}) filter (where ${keptSale}), 0)::float8`,
        net: sql<number>`coalesce(sum(${orders.totalMinor} - coalesce(${given.amount}, 0)) filter (where ${keptSale}), 0)::float8`,
      })
      .from(codeRedemptions)
      .innerJoin(orders, eq(orders.id, codeRedemptions.orderId))
      .innerJoin(discountCodes, eq(discountCodes.id, codeRedemptions.codeId))
      .leftJoin(given, eq(given.orderId, orders.id))
      .where(options.includeTest ? undefined : eq(orders.test, false))
      .groupBy(codeRedemptions.codeId, discountCodes.welcome, codeRedemptions.currency),
    db.select({ count: sql<number>`count(*)::int` }).from(discountCodes).where(eq(discountCodes.welcome, true)),
  ]);

  const welcome: WelcomeFigures = { issued: issued?.count ?? 0, ...noFigures() };
  const byCode = new Map<string, CodeFigures>();
  for (const row of figureRows) {
    const numbers = { currency: row.currency, kept: row.kept, reserved: row.reserved, sales: row.sales, discount: Number(row.discount), net: Number(row.net) };
    if (row.welcome) {
      addInto(welcome, numbers);
      continue;
    }
    const figures = byCode.get(row.codeId) ?? noFigures();
    addInto(figures, numbers);
    byCode.set(row.codeId, figures);
  }
  return {
    codes: codeRows.map((row) => ({ code: termsOf(row), createdAt: row.createdAt, figures: byCode.get(row.id) ?? noFigures() })),
    welcome,
  };
}
