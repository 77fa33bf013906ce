import type { CountryCode, CurrencyCode } from "../market/markets";

/** What a code takes off: a share of the checkout's lines, or a fixed amount per currency. */
export type CodeReduction = { kind: "percent"; percent: number } | { kind: "amount"; amountMinor: Partial<Record<CurrencyCode, number>> };

/** A code's terms, as an operator set them (or as the welcome code's issue fixed them). */
export interface CodeTerms {
  /** Normalised: upper-case letters and digits. */
  code: string;
  reduction: CodeReduction;
  /** The smallest total of the checkout's lines the code takes, per currency; none means any. */
  minimumMinor: Partial<Record<CurrencyCode, number>>;
  /** The markets it is valid in; empty means every market. */
  countries: readonly CountryCode[];
  validFrom: Date | null;
  validUntil: Date | null;
  /** How many orders may redeem it altogether; null means no limit. */
  maxRedemptions: number | null;
  /** Once per buyer, by the normalised e-mail address. */
  oncePerCustomer: boolean;
  /** Only for a buyer with no earlier paid order under that e-mail address. */
  firstOrderOnly: boolean;
  active: boolean;
}

/** Why a code is refused; each has its sentence in every locale's checkout copy. */
export const codeRefusals = ["unknown", "not_yet_valid", "expired", "used", "market", "minimum", "not_first_order"] as const;
export type CodeRefusal = (typeof codeRefusals)[number];

export const codePattern = /^[A-Z0-9]{3,32}$/;

/**
 * A code as a buyer may type it: spaces and dashes are ignored, case does not matter. Null for
 * input that cannot be a code at all (which the checkout refuses as unknown).
 */
export function normalizeCode(input: string): string | null {
  const code = input.replace(/[\s-]+/g, "").toUpperCase();
  return codePattern.test(code) ? code : null;
}

/** Who is buying, what, where and when: everything a code's terms are checked against. */
export interface RedemptionContext {
  country: CountryCode;
  currency: CurrencyCode;
  /** The checkout's lines (bundle and bump) before the code. */
  linesMinor: number;
  now: Date;
  /** Redemptions held by other orders (reserved or kept). */
  redemptionsTaken: number;
  /** Whether this buyer's e-mail already holds a redemption of this code. */
  usedByBuyer: boolean;
  /** Whether this buyer's e-mail has an earlier paid order, or another order holding a first-order code. */
  buyerHasEarlierOrder: boolean;
}

/** The first reason the code cannot be used in this context, or null when it can. */
export function refusalOf(terms: CodeTerms, context: RedemptionContext): CodeRefusal | null {
  if (!terms.active) return "unknown";
  if (terms.validFrom && context.now < terms.validFrom) return "not_yet_valid";
  if (terms.validUntil && context.now >= terms.validUntil) return "expired";
  if (terms.countries.length > 0 && !terms.countries.includes(context.country)) return "market";
  if (terms.reduction.kind === "amount" && terms.reduction.amountMinor[context.currency] === undefined) return "market";
  if (terms.maxRedemptions !== null && context.redemptionsTaken >= terms.maxRedemptions) return "used";
  if (terms.oncePerCustomer && context.usedByBuyer) return "used";
  if (terms.firstOrderOnly && context.buyerHasEarlierOrder) return "not_first_order";
  if (context.linesMinor < smallestLinesFor(terms, context.currency)) return "minimum";
  return null;
}

/**
 * The smallest total of the checkout's lines the code takes in this currency: its own minimum, and
 * for an amount code at least its amount and one minor unit. An order must keep something to pay:
 * a free order would pass a payment of nothing through the providers (most refuse one below their
 * own minimum), and a percent code already stops at 90 %.
 */
export function smallestLinesFor(terms: CodeTerms, currency: CurrencyCode): number {
  const ownMinimum = terms.minimumMinor[currency] ?? 0;
  const amount = terms.reduction.kind === "amount" ? terms.reduction.amountMinor[currency] : undefined;
  return amount === undefined ? ownMinimum : Math.max(ownMinimum, amount + 1);
}

/** What the code takes off lines worth `linesMinor`: never more than the lines themselves. */
export function discountOf(reduction: CodeReduction, currency: CurrencyCode, linesMinor: number): number {
  const off = reduction.kind === "percent" ? Math.round((linesMinor * reduction.percent) / 100) : (reduction.amountMinor[currency] ?? 0);
  return Math.min(off, linesMinor);
}

/**
 * The normalised e-mail a code's once-per-customer and first-order terms count by: aliases of one
 * mailbox are one buyer. A `+tag` is dropped for every domain (most providers deliver it to the
 * same mailbox); Gmail also ignores dots, and googlemail.com is gmail.com. The database computes the
 * same key in `customerKeySql` (orders/customer-key.ts): change both together.
 */
export function customerKey(email: string): string {
  const address = email.trim().toLowerCase().replace(/\+[^@]*@/, "@");
  if (!/@(gmail|googlemail)\.com$/.test(address)) return address;
  return `${(address.split("@")[0] ?? "").replaceAll(".", "")}@gmail.com`;
}
