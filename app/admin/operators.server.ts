import { createHash, randomBytes, randomUUID } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Database } from "../db/database.server";
import { loginThrottle, operators, operatorSessions, operatorRoles, type OperatorRole } from "../operators/schema";
import { recordAudit, type Operator } from "../operators/audit.server";

/**
 * Back-office accounts and sessions (decision 0016): Argon2id passwords, sessions stored in the
 * database behind a random token, failed logins slowed and then locked per address tried.
 */

/** A session ends after this long without a request, and in any case this long after login. */
export const sessionIdleMs = 2 * 60 * 60 * 1000;
export const sessionMaxMs = 12 * 60 * 60 * 1000;

/** From the third failure in a row each attempt waits longer; the tenth locks the address. */
export const throttle = { slowAfter: 3, lockAfter: 10, maxDelayMs: 8_000, lockMs: 15 * 60 * 1000, windowMs: 15 * 60 * 1000 } as const;

export const minPasswordLength = 12;

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export type AddOperatorResult = { kind: "added"; operator: Operator } | { kind: "refused"; message: string };

export async function addOperator(db: Database, input: { email: string; role: string; password: string }): Promise<AddOperatorResult> {
  const email = normaliseEmail(input.email);
  if (!emailPattern.test(email) || email.length > 254) return { kind: "refused", message: `"${input.email}" is not an e-mail address.` };
  if (!(operatorRoles as readonly string[]).includes(input.role)) return { kind: "refused", message: `The role must be ${operatorRoles.join(" or ")}.` };
  if (input.password.length < minPasswordLength) return { kind: "refused", message: `The password must have at least ${minPasswordLength} characters.` };
  const [existing] = await db.select({ id: operators.id }).from(operators).where(eq(operators.email, email));
  if (existing) return { kind: "refused", message: `An operator ${email} exists already.` };
  const operator: Operator = { id: randomUUID(), email, role: input.role as OperatorRole };
  const passwordHash = await hash(input.password);
  const inserted = await db.insert(operators).values({ ...operator, passwordHash }).onConflictDoNothing().returning({ id: operators.id });
  return inserted.length > 0 ? { kind: "added", operator } : { kind: "refused", message: `An operator ${email} exists already.` };
}

export async function operatorCount(db: Database): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(operators);
  return row?.count ?? 0;
}

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** Makes the unknown-address path cost what a real verification costs, so timing tells nothing. */
let decoyHash: Promise<string> | undefined;

export type LoginResult =
  | { kind: "signed_in"; operator: Operator; token: string }
  | { kind: "refused" }
  | { kind: "locked"; until: Date };

export interface LoginOptions {
  now?: Date;
  /** How the answer is held back after repeated failures (replaced in tests). */
  wait?: (ms: number) => Promise<void>;
  /** The session the browser still holds: ended, so a login always starts a new session id. */
  previousToken?: string | null;
}

const defaultWait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long the answer to this attempt is held back, after `failures` failures in a row. */
export function loginDelayMs(failures: number): number {
  if (failures < throttle.slowAfter) return 0;
  return Math.min(1000 * 2 ** (failures - throttle.slowAfter), throttle.maxDelayMs);
}

/**
 * Counts this attempt before its password is checked, in one statement, so attempts sent at once
 * each see the ones before them: a read-then-write let twenty parallel wrong passwords all read
 * the same count and never reach the lock. A served lock, or failures older than the window,
 * start the count again. Answers this attempt's place in the count and any lock still running.
 */
async function countAttempt(db: Database, email: string, now: Date): Promise<{ attempt: number; lockedUntil: Date | null }> {
  const at = now.toISOString();
  const windowStart = new Date(now.getTime() - throttle.windowMs).toISOString();
  const locked = sql`${loginThrottle.lockedUntil} > ${at}::timestamptz`;
  const [row] = await db
    .insert(loginThrottle)
    .values({ email, failures: 1, lastFailureAt: now, lockedUntil: null })
    .onConflictDoUpdate({
      target: loginThrottle.email,
      set: {
        failures: sql`case when ${locked} then ${loginThrottle.failures}
          when ${loginThrottle.lockedUntil} is null and ${loginThrottle.lastFailureAt} > ${windowStart}::timestamptz then ${loginThrottle.failures} + 1
          else 1 end`,
        lastFailureAt: sql`case when ${locked} then ${loginThrottle.lastFailureAt} else ${at}::timestamptz end`,
        lockedUntil: sql`case when ${locked} then ${loginThrottle.lockedUntil} else null end`,
      },
    })
    .returning({ attempt: loginThrottle.failures, lockedUntil: loginThrottle.lockedUntil });
  return { attempt: row?.attempt ?? 1, lockedUntil: row?.lockedUntil && row.lockedUntil > now ? row.lockedUntil : null };
}

async function lockAddress(db: Database, email: string, now: Date): Promise<Date> {
  const until = new Date(now.getTime() + throttle.lockMs);
  await db.update(loginThrottle).set({ lockedUntil: until }).where(eq(loginThrottle.email, email));
  return until;
}

export async function logIn(db: Database, emailInput: string, password: string, options: LoginOptions = {}): Promise<LoginResult> {
  const now = options.now ?? new Date();
  const email = normaliseEmail(emailInput).slice(0, 254);
  const { attempt, lockedUntil } = await countAttempt(db, email, now);
  if (lockedUntil) return { kind: "locked", until: lockedUntil };
  const failuresBefore = attempt - 1;
  // As many attempts before this one as the lock needs, finished or still being checked: locked.
  if (failuresBefore >= throttle.lockAfter) return { kind: "locked", until: await lockAddress(db, email, now) };
  const delay = loginDelayMs(failuresBefore);
  if (delay > 0) await (options.wait ?? defaultWait)(delay);

  const [account] = await db.select().from(operators).where(eq(operators.email, email));
  decoyHash ??= hash(randomBytes(16).toString("hex"));
  const matches = account ? await verify(account.passwordHash, password) : (await verify(await decoyHash, password), false);
  if (!account || !matches) {
    return attempt >= throttle.lockAfter ? { kind: "locked", until: await lockAddress(db, email, now) } : { kind: "refused" };
  }

  const operator: Operator = { id: account.id, email: account.email, role: account.role };
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx.delete(loginThrottle).where(eq(loginThrottle.email, email));
    if (options.previousToken) await tx.delete(operatorSessions).where(eq(operatorSessions.tokenHash, tokenHash(options.previousToken)));
    // Sessions that ran out are removed whenever someone logs in: the table never grows.
    await tx.delete(operatorSessions).where(lt(operatorSessions.expiresAt, now));
    await tx.insert(operatorSessions).values({
      tokenHash: tokenHash(token),
      operatorId: account.id,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + sessionMaxMs),
    });
    await tx.update(operators).set({ lastLoginAt: now }).where(eq(operators.id, account.id));
    await recordAudit(tx, operator, "logged_in");
  });
  return { kind: "signed_in", operator, token };
}

/** The operator a session token belongs to, while the session is alive; each use keeps it alive. */
export async function operatorForSession(db: Database, token: string | null | undefined, now = new Date()): Promise<Operator | null> {
  if (!token) return null;
  const [row] = await db
    .select({ id: operators.id, email: operators.email, role: operators.role, lastSeenAt: operatorSessions.lastSeenAt })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(
      and(
        eq(operatorSessions.tokenHash, tokenHash(token)),
        gt(operatorSessions.expiresAt, now),
        gt(operatorSessions.lastSeenAt, new Date(now.getTime() - sessionIdleMs)),
      ),
    );
  if (!row) return null;
  // Written at most once a minute: reading pages should not mean a write per request.
  if (now.getTime() - row.lastSeenAt.getTime() > 60_000) {
    await db.update(operatorSessions).set({ lastSeenAt: now }).where(eq(operatorSessions.tokenHash, tokenHash(token)));
  }
  return { id: row.id, email: row.email, role: row.role };
}

export async function logOut(db: Database, token: string | null | undefined, operator: Operator | null): Promise<void> {
  if (!token) return;
  await db.transaction(async (tx) => {
    await tx.delete(operatorSessions).where(eq(operatorSessions.tokenHash, tokenHash(token)));
    if (operator) await recordAudit(tx, operator, "logged_out");
  });
}

/**
 * What each role may do: support looks (reviews included) and fulfils; only an owner gives money
 * back, erases data, decides what the storefront publishes in the buyers' names (reviews), or
 * decides which pages visitors see (split tests) or which discount codes buyers may use.
 */
export type Permission = "view" | "fulfil" | "handle_requests" | "export_data" | "refund" | "erase" | "moderate_reviews" | "run_experiments" | "manage_codes";

const permissions: Record<OperatorRole, readonly Permission[]> = {
  support: ["view", "fulfil", "handle_requests", "export_data"],
  owner: ["view", "fulfil", "handle_requests", "export_data", "refund", "erase", "moderate_reviews", "run_experiments", "manage_codes"],
};

export function may(operator: Operator, permission: Permission): boolean {
  return permissions[operator.role].includes(permission);
}
