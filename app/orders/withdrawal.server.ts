import { randomInt, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "../db/database.server";
import { orders, withdrawals } from "./schema";
import { enqueueMail } from "../mail/outbox.server";
import { takeFormMailAllowance } from "../mail/recipient-allowance.server";
import { changeStatus, recordEvent, type Order } from "./order-records.server";
import { normalizeOrderNumber } from "./order-number";

/**
 * The withdrawal function (Directive (EU) 2023/2673, decision 42): every declaration is stored and
 * acknowledged, whether or not it matches an order; it is linked to the order when the order
 * number and e-mail address agree, and a paid or fulfilled order becomes `withdrawn`.
 */
export interface WithdrawalInput {
  name: string;
  orderNumber: string;
  email: string;
  locale: string;
  market: string;
}

export interface WithdrawalReceipt {
  reference: string;
  receivedAt: Date;
}

const referenceAlphabet = "23456789ABCDEFGHJKMNPQRSTWXYZ";
const newReference = () => `W-${Array.from({ length: 8 }, () => referenceAlphabet[randomInt(referenceAlphabet.length)]).join("")}`;

export async function receiveWithdrawal(db: Database, input: WithdrawalInput): Promise<WithdrawalReceipt> {
  return db.transaction(async (tx) => {
    const number = normalizeOrderNumber(input.orderNumber) ?? input.orderNumber.trim().toUpperCase();
    const [order] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.number, number), eq(sql`lower(${orders.email})`, input.email.trim().toLowerCase())))
      .for("update");
    const receivedAt = new Date();
    const reference = newReference();
    const id = randomUUID();
    await tx.insert(withdrawals).values({
      id,
      reference,
      name: input.name.trim(),
      orderNumber: number,
      email: input.email.trim(),
      orderId: order?.id ?? null,
      locale: input.locale,
      receivedAt,
    });
    if (order) await markWithdrawn(tx, order, reference);
    // The receipt on a durable medium the directive asks for. Matched, it goes to the order's own
    // address with the declaration as given; otherwise the typed address is unverified, so the
    // receipt names no typed name and an order number only in the store's own form.
    const recipient = order?.email ?? input.email.trim();
    if (await takeFormMailAllowance(tx, recipient)) {
      const told = order ? { name: input.name.trim(), orderNumber: number } : { name: "", orderNumber: normalizeOrderNumber(input.orderNumber) ?? "" };
      await enqueueMail(tx, {
        kind: "withdrawal",
        dedupeKey: `withdrawal:${id}`,
        recipient,
        locale: input.locale,
        orderId: order?.id ?? null,
        payload: { reference, ...told, receivedAt: receivedAt.toISOString(), market: input.market },
      });
    }
    return { reference, receivedAt };
  });
}

async function markWithdrawn(tx: Transaction, order: Order, reference: string): Promise<void> {
  if (order.status === "paid" || order.status === "fulfilled") await changeStatus(tx, order, "withdrawn", "withdrawal_received", { reference });
  else await recordEvent(tx, order.id, "withdrawal_received", { reference, status: order.status });
}
