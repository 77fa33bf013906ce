import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database.server";
import { auditLog } from "../operators/schema";
import { feedback, refundRequests, withdrawals } from "../orders/schema";
import { storeFeedback, storeRefundRequest } from "../orders/submissions.server";
import { receiveWithdrawal } from "../orders/withdrawal.server";
import { refundOrder } from "../orders/refund-service.server";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { paidTestOrder, testOperator } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import type { Operator } from "../operators/audit.server";
import { listReviews } from "./review-moderation.server";
import {
  listFeedback,
  listRefundRequests,
  listWithdrawals,
  markWithdrawalRefunded,
  queuePageSize,
  refundRequestStatuses,
  setRefundRequestStatus,
  setWithdrawalStatus,
  withdrawalStatuses,
  type StatusChangeResult,
} from "./queues.server";

const origin = { locale: "de_DE", market: "DE" };

describe("queue statuses", () => {
  it("are the words the pages offer", () => {
    expect(withdrawalStatuses).toEqual(["received", "refunded", "closed"]);
    expect(refundRequestStatuses).toEqual(["open", "resolved", "declined"]);
  });
});

describe.each(databaseKinds)("customer-service queues on %s", (kind) => {
  const database = useTestDatabase(kind);
  let db: Database;
  let operator: Operator;
  beforeAll(async () => {
    db = database.db;
    operator = await testOperator(db);
  });

  /** A withdrawal matched to a paid order, or one whose number matches nothing. */
  async function withdrawal(linked: boolean): Promise<{ id: string; orderId: string | null; orderNumber: string | null }> {
    const { order } = linked ? await paidTestOrder(db) : { order: null };
    const { reference } = await receiveWithdrawal(db, { name: "Anna Muster", orderNumber: order?.number ?? "VN-2222-3333", email: order?.email ?? "b@example.com", locale: "de_DE", market: "DE" });
    const [row] = await db.select().from(withdrawals).where(eq(withdrawals.reference, reference));
    if (!row) throw new Error("withdrawal not stored");
    return { id: row.id, orderId: order?.id ?? null, orderNumber: order?.number ?? null };
  }

  async function refundRequest(linked: boolean): Promise<{ id: string; orderId: string | null; orderNumber: string | null }> {
    const { order } = linked ? await paidTestOrder(db) : { order: null };
    const message = `request ${randomUUID()}`;
    await storeRefundRequest(db, { orderNumber: order?.number ?? "VN-2222-3333", email: order?.email ?? "b@example.com", reason: "damaged", message }, origin);
    const [row] = await db.select().from(refundRequests).where(eq(refundRequests.message, message));
    if (!row) throw new Error("refund request not stored");
    return { id: row.id, orderId: order?.id ?? null, orderNumber: order?.number ?? null };
  }

  it("lists withdrawals newest first, with the order each was matched to", async () => {
    const older = await withdrawal(true);
    const newer = await withdrawal(false);
    await db.update(withdrawals).set({ receivedAt: new Date(Date.now() - 60_000) }).where(eq(withdrawals.id, older.id));
    const { rows, page, total } = await listWithdrawals(db);
    expect(page).toBe(1);
    expect(total).toBeGreaterThanOrEqual(2);
    expect(rows.map((row) => row.id).slice(0, 2)).toEqual([newer.id, older.id]);
    expect(rows[0]).toMatchObject({ order: null, orderNumber: "VN-2222-3333", status: "received", name: "Anna Muster", email: "b@example.com" });
    expect(rows[1]?.order).toMatchObject({ id: older.orderId, number: older.orderNumber, status: "withdrawn", currency: "EUR", refundedMinor: 0 });
    expect(rows[1]?.order?.refundableLines.map((line) => line.grossMinor)).toEqual([8970]);
  });

  it("never takes `refunded` as an operator's word: a withdrawal is refunded only through a refund that succeeded", async () => {
    const item = await withdrawal(true);
    const owner = await testOperator(db, "owner");
    expect(await setWithdrawalStatus(db, owner, item.id, "refunded")).toEqual({ kind: "refused", reason: "not_allowed" });
    expect(await markWithdrawalRefunded(db, owner, item.id, [])).toEqual({ kind: "refused", reason: "not_allowed" });
    expect(await markWithdrawalRefunded(db, owner, item.id, [randomUUID()])).toEqual({ kind: "refused", reason: "not_allowed" });
    expect((await listWithdrawals(db)).rows.find((row) => row.id === item.id)?.status).toBe("received");

    const [line] = (await listWithdrawals(db)).rows.find((row) => row.id === item.id)?.order?.refundableLines ?? [];
    const refunded = await refundOrder(db, new Map([["test", new TestGateway(db)]]), { orderId: item.orderId ?? "", scope: { kind: "lines", lineIds: [line?.id ?? -1] }, reason: "withdrawal", requestKey: randomUUID() });
    if (refunded.kind !== "refunded") throw new Error(`expected a refund, got ${refunded.kind}`);
    expect(await markWithdrawalRefunded(db, owner, item.id, refunded.refunds.map((refund) => refund.id))).toEqual({ kind: "changed", from: "received", to: "refunded" });
    const row = (await listWithdrawals(db)).rows.find((candidate) => candidate.id === item.id);
    expect(row).toMatchObject({ status: "refunded", order: { status: "refunded", refundedMinor: 8970, refundableLines: [] } });
  });

  it("lists refund requests newest first, with the order each was matched to", async () => {
    const older = await refundRequest(true);
    const newer = await refundRequest(false);
    await db.update(refundRequests).set({ createdAt: new Date(Date.now() - 60_000) }).where(eq(refundRequests.id, older.id));
    const { rows } = await listRefundRequests(db);
    expect(rows.map((row) => row.id).slice(0, 2)).toEqual([newer.id, older.id]);
    expect(rows[0]).toMatchObject({ order: null, status: "open", reason: "damaged" });
    expect(rows[1]?.order).toEqual({ id: older.orderId, number: older.orderNumber });
  });

  it("never takes `refunded` as an operator's word: a withdrawal is refunded only through a refund that succeeded", async () => {
    const item = await withdrawal(true);
    const owner = await testOperator(db, "owner");
    expect(await setWithdrawalStatus(db, owner, item.id, "refunded")).toEqual({ kind: "refused", reason: "not_allowed" });
    expect(await markWithdrawalRefunded(db, owner, item.id, [])).toEqual({ kind: "refused", reason: "not_allowed" });
    expect(await markWithdrawalRefunded(db, owner, item.id, [randomUUID()])).toEqual({ kind: "refused", reason: "not_allowed" });
    expect((await listWithdrawals(db)).rows.find((row) => row.id === item.id)?.status).toBe("received");

    const [line] = (await listWithdrawals(db)).rows.find((row) => row.id === item.id)?.order?.refundableLines ?? [];
    const refunded = await refundOrder(db, new Map([["test", new TestGateway(db)]]), { orderId: item.orderId ?? "", scope: { kind: "lines", lineIds: [line?.id ?? -1] }, reason: "withdrawal", requestKey: randomUUID() });
    if (refunded.kind !== "refunded") throw new Error(`expected a refund, got ${refunded.kind}`);
    expect(await markWithdrawalRefunded(db, owner, item.id, refunded.refunds.map((refund) => refund.id))).toEqual({ kind: "changed", from: "received", to: "refunded" });
    const row = (await listWithdrawals(db)).rows.find((candidate) => candidate.id === item.id);
    expect(row).toMatchObject({ status: "refunded", order: { status: "refunded", refundedMinor: 8970, refundableLines: [] } });
  });

  it.each(["1e300", "99999999999999999999", "-5", "x"])("opens page 1 of every list for the page %s", async (asked) => {
    const page = Number(asked);
    for (const list of [listWithdrawals, listRefundRequests, listFeedback]) expect((await list(db, page)).page).toBe(1);
    expect((await listReviews(db, "pending", page)).page).toBe(1);
  });

  it("lists feedback newest first, a page at a time", async () => {
    const base = Date.now() - 1_000_000;
    await db.insert(feedback).values(
      Array.from({ length: queuePageSize + 5 }, (_, index) => ({ id: randomUUID(), rating: (index % 5) + 1, comment: `comment ${index}`, email: null, locale: "de_DE", createdAt: new Date(base + index * 1000) })),
    );
    await storeFeedback(db, { rating: "5", comment: "newest", email: "c@example.com" }, origin);
    const first = await listFeedback(db);
    expect(first.total).toBe(queuePageSize + 6);
    expect(first.pages).toBe(2);
    expect(first.rows).toHaveLength(queuePageSize);
    expect(first.rows[0]).toMatchObject({ comment: "newest", email: "c@example.com", rating: 5 });
    expect(first.rows[1]?.comment).toBe(`comment ${queuePageSize + 4}`);
    const second = await listFeedback(db, 2);
    expect(second.rows.map((row) => row.comment)).toEqual(["comment 5", "comment 4", "comment 3", "comment 2", "comment 1", "comment 0"]);
    expect((await listFeedback(db, 0)).page).toBe(1);
    expect((await listFeedback(db, 1.5)).page).toBe(1);
  });

  const changes: {
    name: string;
    create: (linked: boolean) => Promise<{ id: string; orderId: string | null }>;
    set: (db: Database, operator: Operator, id: string, status: string) => Promise<StatusChangeResult>;
    table: typeof withdrawals | typeof refundRequests;
    start: string;
    ends: readonly string[];
    /** A status of the queue that cannot follow the first end. */
    other: string;
    action: string;
  }[] = [
    { name: "withdrawal", create: withdrawal, set: setWithdrawalStatus, table: withdrawals, start: "received", ends: ["closed"], other: "refunded", action: "withdrawal_status_changed" },
    { name: "refund request", create: refundRequest, set: setRefundRequestStatus, table: refundRequests, start: "open", ends: ["resolved", "declined"], other: "declined", action: "refund_request_status_changed" },
  ];

  describe.each(changes)("a $name's status", ({ create, set, table, start, ends, other, action }) => {
    const statusOf = async (id: string) => (/^[0-9a-f-]{36}$/.test(id) ? (await db.select({ status: table.status }).from(table).where(eq(table.id, id)))[0]?.status : undefined);

    it.each(ends.map((end) => [end]))(`moves from ${start} to %s, audited on its order`, async (end) => {
      const item = await create(true);
      expect(await set(db, operator, item.id, end)).toEqual({ kind: "changed", from: start, to: end });
      expect(await statusOf(item.id)).toBe(end);
      const audit = await db.select().from(auditLog).where(eq(auditLog.action, action));
      expect(audit.filter((entry) => entry.orderId === item.orderId).map((entry) => [entry.operatorId, entry.detail.from, entry.detail.to])).toEqual([[operator.id, start, end]]);
    });

    it("is audited without an order when it matched none", async () => {
      const item = await create(false);
      const before = (await db.select().from(auditLog)).length;
      expect((await set(db, operator, item.id, ends[0] ?? "")).kind).toBe("changed");
      const after = await db.select().from(auditLog).orderBy(auditLog.id);
      expect(after).toHaveLength(before + 1);
      expect(after.at(-1)).toMatchObject({ action, orderId: null, operatorEmail: operator.email });
      expect(JSON.stringify(after.at(-1)?.detail)).not.toContain("example.com");
    });

    const fresh = async (): Promise<string> => (await create(false)).id;
    const unknownId = async (): Promise<string> => randomUUID();
    const malformedId = async (): Promise<string> => "1; drop table";

    it.each([
      ["an unknown status", fresh, "bogus", { kind: "refused", reason: "unknown_status" }],
      ["the other queue's status", fresh, start === "open" ? "closed" : "resolved", { kind: "refused", reason: "unknown_status" }],
      ["the status it has already", fresh, start, { kind: "unchanged", status: start }],
      ["an unknown id", unknownId, ends[0] ?? "", { kind: "refused", reason: "not_found" }],
      ["an id that is no id", malformedId, ends[0] ?? "", { kind: "refused", reason: "not_found" }],
    ] as const)("answers %s without changing anything", async (_, id, status, expected) => {
      const target = await id();
      const before = await statusOf(target);
      const audited = (await db.select().from(auditLog)).length;
      expect(await set(db, operator, target, status)).toEqual(expected);
      expect(await statusOf(target)).toBe(before);
      expect(await db.select().from(auditLog)).toHaveLength(audited);
    });

    it("never leaves a final status, and takes the same answer twice as one", async () => {
      const item = await create(false);
      const [first = ""] = ends;
      const second = other;
      await set(db, operator, item.id, first);
      const audited = (await db.select().from(auditLog)).length;
      expect(await set(db, operator, item.id, first)).toEqual({ kind: "unchanged", status: first });
      expect(await set(db, operator, item.id, second)).toEqual({ kind: "refused", reason: "not_allowed" });
      expect(await set(db, operator, item.id, start)).toEqual({ kind: "refused", reason: "not_allowed" });
      expect(await statusOf(item.id)).toBe(first);
      expect(await db.select().from(auditLog)).toHaveLength(audited);
    });
  });
});
