import { randomInt, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database, Transaction } from "../db/database.server";
import type { CodeTerms } from "./code-terms";
import { discountCodes } from "./schema";

export type StoredCode = CodeTerms & { id: string; welcome: boolean };

type CodeRow = typeof discountCodes.$inferSelect;

export function termsOf(row: CodeRow): StoredCode {
  return {
    id: row.id,
    code: row.code,
    reduction: row.kind === "percent" ? { kind: "percent", percent: row.percent ?? 0 } : { kind: "amount", amountMinor: row.amountMinor },
    minimumMinor: row.minimumMinor,
    countries: row.countries,
    validFrom: row.validFrom,
    validUntil: row.validUntil,
    maxRedemptions: row.maxRedemptions,
    oncePerCustomer: row.oncePerCustomer,
    firstOrderOnly: row.firstOrderOnly,
    active: row.active,
    welcome: row.welcome,
  };
}

/** The code with this normalised text, or null. With `lock`, its row is held until the transaction ends. */
export async function findCode(db: Database | Transaction, code: string, lock = false): Promise<StoredCode | null> {
  const query = db.select().from(discountCodes).where(eq(discountCodes.code, code));
  const [row] = lock ? await query.for("update") : await query;
  return row ? termsOf(row) : null;
}

/** Stores a code (an operator's, or a visitor's welcome code); null when that code text is taken. */
export async function createCode(db: Database | Transaction, terms: CodeTerms, welcome = false): Promise<{ id: string } | null> {
  const id = randomUUID();
  const inserted = await db
    .insert(discountCodes)
    .values({
      id,
      code: terms.code,
      kind: terms.reduction.kind,
      percent: terms.reduction.kind === "percent" ? terms.reduction.percent : null,
      amountMinor: terms.reduction.kind === "amount" ? terms.reduction.amountMinor : {},
      minimumMinor: terms.minimumMinor,
      countries: [...terms.countries],
      validFrom: terms.validFrom,
      validUntil: terms.validUntil,
      maxRedemptions: terms.maxRedemptions,
      oncePerCustomer: terms.oncePerCustomer,
      firstOrderOnly: terms.firstOrderOnly,
      active: terms.active,
      welcome,
    })
    .onConflictDoNothing({ target: discountCodes.code })
    .returning({ id: discountCodes.id });
  return inserted[0] ?? null;
}

export async function setCodeActive(db: Database | Transaction, id: string, active: boolean): Promise<boolean> {
  const changed = await db.update(discountCodes).set({ active }).where(eq(discountCodes.id, id)).returning({ id: discountCodes.id });
  return changed.length > 0;
}

/** What the welcome section promises: 10 % off a first order, once, for 30 days. */
export const welcomeTerms = { percent: 10, validDays: 30 } as const;

// No 0/O or 1/I: a code read off a screen and typed at the checkout must not be mistaken.
const welcomeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

function welcomeCodeText(): string {
  let suffix = "";
  for (let index = 0; index < 8; index++) suffix += welcomeAlphabet[randomInt(welcomeAlphabet.length)];
  return `HELLO${suffix}`;
}

/** Issues one visitor's own welcome code, unique and single use, valid from `now` for 30 days. */
export async function issueWelcomeCode(db: Database, now: Date): Promise<{ code: string; validUntil: Date }> {
  const validUntil = new Date(now.getTime() + welcomeTerms.validDays * 24 * 60 * 60 * 1000);
  // 32^8 codes: a clash is all but impossible, and a clash is simply drawn again.
  for (;;) {
    const code = welcomeCodeText();
    const created = await createCode(
      db,
      {
      code,
      reduction: { kind: "percent", percent: welcomeTerms.percent },
      minimumMinor: {},
      countries: [],
      validFrom: now,
      validUntil,
      maxRedemptions: 1,
      oncePerCustomer: true,
      firstOrderOnly: true,
      active: true,
      },
      true,
    );
    if (created) return { code, validUntil };
  }
}
