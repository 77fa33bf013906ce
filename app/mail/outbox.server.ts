import { and, eq, inArray, lte, or, sql, isNull } from "drizzle-orm";
import type { Database, Queryable } from "../db/database.server";
import { outbox } from "./schema";

export type OutboxRow = typeof outbox.$inferSelect;

export interface NewMail {
  kind: string;
  dedupeKey: string;
  recipient: string;
  locale: string;
  orderId?: string | null;
  payload?: Record<string, unknown>;
  sendAfter?: Date;
}

/** Queues an e-mail in the caller's transaction: it exists exactly when the change it reports does. */
export async function enqueueMail(tx: Queryable, mail: NewMail): Promise<void> {
  await tx
    .insert(outbox)
    .values({ ...mail, orderId: mail.orderId ?? null, payload: mail.payload ?? {}, sendAfter: mail.sendAfter ?? new Date() })
    .onConflictDoNothing({ target: outbox.dedupeKey });
}

const leaseMs = 2 * 60 * 1000;
const maxAttempts = 8;

/** Retry after 30 s, 1 min, 2 min, … up to an hour. */
function backoffMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60 * 1000);
}

/**
 * Takes up to `limit` due messages for this worker for a while (a lease). `SKIP LOCKED` lets
 * several servers share the queue; a worker that dies mid-send leaves its lease to expire, so the
 * message is tried again after a restart.
 */
export async function claimDue(db: Database, limit: number, now = new Date()): Promise<OutboxRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(eq(outbox.status, "pending"), lte(outbox.sendAfter, now), or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now))))
      .orderBy(outbox.sendAfter)
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(outbox)
      .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sql`${outbox.attempts} + 1` })
      .where(inArray(outbox.id, due.map((row) => row.id)))
      .returning();
  });
}

export async function markSent(db: Database, id: number): Promise<void> {
  await db.update(outbox).set({ status: "sent", sentAt: new Date(), lockedUntil: null, lastError: null }).where(eq(outbox.id, id));
}

async function markFailed(db: Database, row: OutboxRow, error: string, now = new Date()): Promise<void> {
  const givesUp = row.attempts >= maxAttempts;
  await db
    .update(outbox)
    .set({
      status: givesUp ? "failed" : "pending",
      lockedUntil: null,
      lastError: error.slice(0, 500),
      sendAfter: new Date(now.getTime() + backoffMs(row.attempts)),
    })
    .where(eq(outbox.id, row.id));
}

/** A message with nothing left to say by the time it was due (every review link used): never sent, not retried. */
async function markDropped(db: Database, id: number, reason: string): Promise<void> {
  await db.update(outbox).set({ status: "failed", lockedUntil: null, lastError: reason }).where(eq(outbox.id, id));
}

/** What `deliver` did with a message: sent it, or found that it no longer needs sending. */
export type Delivery = { sent: true } | { dropped: string };

/** Gives claimed messages back untried (a stopping worker's), so that another instance or the next start sends them at once. */
async function releaseClaims(db: Database, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(outbox)
    .set({ lockedUntil: null, attempts: sql`greatest(${outbox.attempts} - 1, 0)` })
    .where(and(inArray(outbox.id, ids), eq(outbox.status, "pending")));
}

export interface OutboxWorker {
  /** Sends what is due now (also what the timer does); resolves when this round is done. */
  runOnce(): Promise<number>;
  /** Finishes the message being sent, gives the rest of the round back and starts no other round. */
  stop(): Promise<void>;
}

/** Polls the outbox every `intervalMs` and hands each due message to `deliver`. */
export function startOutboxWorker(db: Database, deliver: (row: OutboxRow) => Promise<Delivery>, intervalMs = 2_000): OutboxWorker {
  let running: Promise<number> | null = null;
  let stopped = false;
  const round = async (): Promise<number> => {
    let sent = 0;
    if (stopped) return sent;
    const claimed = await claimDue(db, 20);
    for (const [index, row] of claimed.entries()) {
      // Stopping: the message in hand is finished, the others are given back rather than held for the lease.
      if (stopped) {
        await releaseClaims(db, claimed.slice(index).map((rest) => rest.id));
        break;
      }
      try {
        const delivery = await deliver(row);
        if ("dropped" in delivery) {
          await markDropped(db, row.id, delivery.dropped);
        } else {
          await markSent(db, row.id);
          sent += 1;
        }
      } catch (error) {
        // The log names the message, never its recipient or content.
        console.error(`E-mail ${row.kind} #${row.id} failed (attempt ${row.attempts}): ${error instanceof Error ? error.message : String(error)}`);
        await markFailed(db, row, error instanceof Error ? error.message : String(error));
      }
    }
    return sent;
  };
  const runOnce = () => {
    running ??= round().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => {
    if (!stopped) runOnce().catch((error: unknown) => console.error(`Outbox round failed: ${error instanceof Error ? error.message : String(error)}`));
  }, intervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
