import { and, eq, gt, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import { customerKey, discountOf, refusalOf, type CodeRefusal } from "../codes/code-terms";
import { findCode } from "../codes/codes.server";
import type { Database, Queryable, Transaction } from "../db/database.server";
import type { CountryCode, CurrencyCode } from "../market/markets";
import { discountCodes } from "../codes/schema";
import { customerKeySql } from "./customer-key";
import { codeRedemptions, orders, type RedemptionStatus } from "./schema";

/** A code applied to a checkout: what it takes off, or why it cannot be used. */
export type CodeAssessment = { ok: true; codeId: string; code: string; discountMinor: number } | { ok: false; refusal: CodeRefusal };

export interface CodeRequest {
  /** Normalised (`normalizeCode`). */
  code: string;
  email: string;
  country: CountryCode;
  currency: CurrencyCode;
  /** The checkout's lines (bundle and bump) before the code. */
  linesMinor: number;
  now: Date;
  /** The order the redemption is for, when it exists: its own reservation does not count against it. */
  orderId?: string;
}

/**
 * How long an unpaid order's reservation counts against a code's limits. An order left in
 * pending_payment (a 3-D Secure check or a redirect never finished) is never released, so without
 * an end one abandoned checkout would hold a redemption for good: enough of them would use up a
 * limited code, or a stranger's e-mail address would block a buyer's once-per-customer code. An hour
 * is far longer than any payment step takes. A payment that succeeds later still keeps its
 * redemption (`settleRedemption`).
 */
const reservationHoldMs = 60 * 60 * 1000;

/** The redemptions that count against a code at `now`: kept ones, and reservations still within their hold. */
const holdingAt = (now: Date) =>
  or(eq(codeRedemptions.status, "kept"), and(eq(codeRedemptions.status, "reserved"), gt(codeRedemptions.createdAt, new Date(now.getTime() - reservationHoldMs))));

/**
 * Whether the code takes this checkout, and how much it takes off. With `lock` the code's row (and,
 * for a first-order code, the buyer's key) is held until the transaction ends, so that two orders
 * racing for its last redemption are counted one after the other (PostgreSQL); without, it is the
 * checkout's preview.
 */
export async function assessCode(db: Database | Transaction, request: CodeRequest, lock = false): Promise<CodeAssessment> {
  const terms = await findCode(db, request.code, lock);
  if (!terms) return { ok: false, refusal: "unknown" };
  const buyer = customerKey(request.email);
  const others = request.orderId ? ne(codeRedemptions.orderId, request.orderId) : undefined;
  // Only what the code's terms limit is counted: a code without limits costs one query.
  const [taken] =
    terms.maxRedemptions !== null || terms.oncePerCustomer
      ? await db
          .select({
            all: sql<number>`count(*)::int`,
            byBuyer: sql<number>`count(*) filter (where ${codeRedemptions.customerKey} = ${buyer})::int`,
          })
          .from(codeRedemptions)
          .where(and(eq(codeRedemptions.codeId, terms.id), holdingAt(request.now), others))
      : [];
  const earlierOrder = terms.firstOrderOnly ? await hasEarlierOrder(db, buyer, request, lock) : false;
  const refusal = refusalOf(terms, {
    country: request.country,
    currency: request.currency,
    linesMinor: request.linesMinor,
    now: request.now,
    redemptionsTaken: taken?.all ?? 0,
    usedByBuyer: (taken?.byBuyer ?? 0) > 0,
    buyerHasEarlierOrder: earlierOrder,
  });
  if (refusal) return { ok: false, refusal };
  const discountMinor = discountOf(terms.reduction, request.currency, request.linesMinor);
  if (discountMinor === 0) return { ok: false, refusal: "minimum" };
  return { ok: true, codeId: terms.id, code: terms.code, discountMinor };
}

/**
 * Whether the buyer is past a first order: an order paid under any alias of the address, or another
 * order of theirs still holding a first-order code (two unpaid orders with two welcome codes are not
 * both a first order). Placing an order takes a lock on the buyer's key, as the code's lock does
 * not cover two different codes.
 */
async function hasEarlierOrder(db: Queryable, buyer: string, request: CodeRequest, lock: boolean): Promise<boolean> {
  if (lock) await db.execute(sql`select pg_advisory_xact_lock(hashtext(${buyer}))`);
  const [paid] = await db
    .select({ id: orders.id })
    .from(orders)
    // The orders' index on the customer key answers this (orders/customer-key.ts).
    .where(and(eq(customerKeySql(orders.email), buyer), isNotNull(orders.paidAt)))
    .limit(1);
  if (paid) return true;
  const [held] = await db
    .select({ orderId: codeRedemptions.orderId })
    .from(codeRedemptions)
    .innerJoin(discountCodes, eq(discountCodes.id, codeRedemptions.codeId))
    .where(
      and(
        eq(discountCodes.firstOrderOnly, true),
        eq(codeRedemptions.customerKey, buyer),
        holdingAt(request.now),
        request.orderId ? ne(codeRedemptions.orderId, request.orderId) : undefined,
      ),
    )
    .limit(1);
  return held !== undefined;
}

/**
 * Reserves the code for an order being placed, in the order's transaction: checked again under the
 * code's lock, then held from `now`. Placing the same order again replaces its reservation, and
 * starts its hold again.
 */
export async function reserveCode(tx: Transaction, request: CodeRequest & { orderId: string }): Promise<CodeAssessment> {
  const assessed = await assessCode(tx, request, true);
  if (!assessed.ok) return assessed;
  const row = { codeId: assessed.codeId, customerKey: customerKey(request.email), discountMinor: assessed.discountMinor, currency: request.currency, status: "reserved" as const, settledAt: null, createdAt: request.now };
  await tx
    .insert(codeRedemptions)
    .values({ orderId: request.orderId, ...row })
    .onConflictDoUpdate({ target: codeRedemptions.orderId, set: row });
  return assessed;
}

/**
 * Keeps the order's reservation once it is paid, or releases it when it will not be: a no-op without
 * one. A payment that succeeds late, after its order's reservation was released, still keeps it: the
 * buyer paid the discounted price.
 */
export async function settleRedemption(tx: Transaction, orderId: string, outcome: "kept" | "released", now: Date): Promise<void> {
  const from = outcome === "kept" ? inArray(codeRedemptions.status, ["reserved", "released"]) : eq(codeRedemptions.status, "reserved");
  await tx
    .update(codeRedemptions)
    .set({ status: outcome, settledAt: now })
    .where(and(eq(codeRedemptions.orderId, orderId), from));
}

/** The code an order redeemed, with its text, for the pages and e-mails that show the discount. */
export async function redemptionOf(db: Queryable, orderId: string): Promise<{ code: string; discountMinor: number; status: RedemptionStatus } | undefined> {
  const [row] = await db
    .select({ code: discountCodes.code, discountMinor: codeRedemptions.discountMinor, status: codeRedemptions.status })
    .from(codeRedemptions)
    .innerJoin(discountCodes, eq(discountCodes.id, codeRedemptions.codeId))
    .where(eq(codeRedemptions.orderId, orderId));
  return row;
}
