import { createHash } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import type { Queryable } from "../db/database.server";
import { mailRecipientDays } from "./schema";

/**
 * The forms send a receipt to whatever address is typed in; this caps how many one address gets
 * a day, so nobody can use the store's sender to flood an inbox. Counted in one statement (several
 * forms sent at once each see the others) and in the database (every instance counts the same).
 */
export const formMailsPerRecipientPerDay = 5;

const recipientHash = (address: string) => createHash("sha256").update(address.trim().toLowerCase()).digest("hex");

/** Counts one more form e-mail to this address today; false once the day's allowance is spent. */
export async function takeFormMailAllowance(tx: Queryable, address: string, now = new Date()): Promise<boolean> {
  const day = now.toISOString().slice(0, 10);
  // Yesterday's counts and older are no use any more.
  await tx.delete(mailRecipientDays).where(lt(mailRecipientDays.day, day));
  const [row] = await tx
    .insert(mailRecipientDays)
    .values({ recipientHash: recipientHash(address), day, count: 1 })
    .onConflictDoUpdate({
      target: [mailRecipientDays.recipientHash, mailRecipientDays.day],
      set: { count: sql`${mailRecipientDays.count} + 1` },
    })
    .returning({ count: mailRecipientDays.count });
  return (row?.count ?? 1) <= formMailsPerRecipientPerDay;
}
