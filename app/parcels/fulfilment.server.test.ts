import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database.server";
import { auditLog } from "../operators/schema";
import { orderEvents, orders, payments, refunds } from "../orders/schema";
import { orderById, type Order, type OrderLine } from "../orders/order-records.server";
import { applyPaymentOutcome } from "../orders/order-service.server";
import { refundOrder } from "../orders/refund-service.server";
import { closeDispute, openDispute } from "../orders/disputes.server";
import { receiveWithdrawal } from "../orders/withdrawal.server";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { paidTestOrder, testOperator } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder } from "../test-support/orders";
import type { Operator } from "../operators/audit.server";
import { fulfilmentCsv, fulfilmentCsvHeaders, pendingFulfilment, type FulfilmentRefusal, type FulfilmentRow } from "./fulfilment.server";
import { markFulfilled } from "../test-support/fulfilment";

const row = (overrides: Partial<FulfilmentRow> = {}): FulfilmentRow => ({
  orderId: "3f1c0a52-5d1e-4a8e-9c55-0b8a8f6f3c11",
  orderNumber: "VN-7K3M-Q9XD",
  paidAt: new Date("2026-11-20T09:05:30Z"),
  lineId: 12,
  productId: "shape",
  productName: "Shape",
  packs: 3,
  recipient: "Anna Muster",
  addressLine1: "Hauptstraße 1",
  addressLine2: "",
  postalCode: "10115",
  city: "Berlin",
  country: "DE",
  phone: "030 1234567",
  email: "a@example.com",
  market: "DE",
  test: true,
  ...overrides,
});

/** Splits the CSV as a spreadsheet would, for RFC 4180 text without quoted line breaks. */
const records = (csv: string) =>
  csv
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter((line) => line !== "");

describe("the fulfilment CSV", () => {
  it("starts with a byte order mark and a header row naming every column", () => {
    const csv = fulfilmentCsv([row()]);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(records(csv)[0]).toBe(fulfilmentCsvHeaders.join(","));
    expect(fulfilmentCsvHeaders).toEqual([
      "Order number",
      "Paid (UTC)",
      "Line",
      "Product",
      "Product name",
      "Packs",
      "Recipient",
      "Address line 1",
      "Address line 2",
      "Postal code",
      "City",
      "Country",
      "Phone",
      "E-mail",
      "Market",
      "Test",
    ]);
  });

  it("gives one CRLF-terminated record per line, umlauts as they are", () => {
    const csv = fulfilmentCsv([row(), row({ lineId: 13, productId: "ebook", test: false })]);
    expect(csv.endsWith("\r\n")).toBe(true);
    expect(records(csv).slice(1)).toEqual([
      "VN-7K3M-Q9XD,2026-11-20 09:05,12,shape,Shape,3,Anna Muster,Hauptstraße 1,,10115,Berlin,DE,030 1234567,a@example.com,DE,yes",
      "VN-7K3M-Q9XD,2026-11-20 09:05,13,ebook,Shape,3,Anna Muster,Hauptstraße 1,,10115,Berlin,DE,030 1234567,a@example.com,DE,no",
    ]);
  });

  it("is only a header row when nothing waits", () => {
    expect(records(fulfilmentCsv([]))).toEqual([fulfilmentCsvHeaders.join(",")]);
  });

  it.each([
    ["a comma", "Hof 2, Haus B", '"Hof 2, Haus B"'],
    ["a double quote", 'Haus "Sonne"', '"Haus ""Sonne"""'],
    ["a line break", "Hof 2\nHaus B", '"Hof 2\nHaus B"'],
    ["plain text", "Hof 2", "Hof 2"],
  ])("quotes a cell with %s as RFC 4180 says", (_, value, cell) => {
    const csv = fulfilmentCsv([row({ addressLine2: value })]).replace(/^\uFEFF/, "");
    const body = csv.slice(csv.indexOf("\r\n") + 2);
    expect(body).toContain(`,Hauptstraße 1,${cell},10115,`);
  });

  it.each([
    ["=", "=HYPERLINK(\"http://x\")", `"'=HYPERLINK(""http://x"")"`],
    ["+", "+49 30 1234567", "'+49 30 1234567"],
    ["-", "-2+3", "'-2+3"],
    ["@", "@SUM(A1)", "'@SUM(A1)"],
    ["a tab", "\t=1", "'\t=1"],
    ["a carriage return", "\r=1", `"'\r=1"`],
  ])("neutralises a cell starting with %s", (_, value, cell) => {
    const csv = fulfilmentCsv([row({ city: value })]);
    expect(csv).toContain(`,10115,${cell},DE,`);
  });
});

describe.each(databaseKinds)("fulfilment on %s", (kind) => {
  const database = useTestDatabase(kind);
  let db: Database;
  let operator: Operator;
  let gateway: TestGateway;
  beforeAll(async () => {
    db = database.db;
    operator = await testOperator(db);
    gateway = new TestGateway(db);
  });

  const providers = () => new Map([["test", gateway]]);
  const pendingOf = async (orderId: string) => (await pendingFulfilment(db)).filter((pending) => pending.orderId === orderId);
  /** The bank or PayPal opened a dispute on the order's checkout payment. */
  async function disputed(orderId: string): Promise<{ paymentId: string; disputeRef: string }> {
    const [payment] = await db.select().from(payments).where(and(eq(payments.orderId, orderId), eq(payments.purpose, "checkout"), eq(payments.status, "succeeded")));
    if (!payment) throw new Error("no paid checkout payment");
    const disputeRef = `dp_${randomUUID()}`;
    await openDispute(db, payment.id, disputeRef);
    return { paymentId: payment.id, disputeRef };
  }

  const lineOf = (lines: OrderLine[], source: string) => {
    const line = lines.find((candidate) => candidate.source === source);
    if (!line) throw new Error(`no line from ${source}`);
    return line;
  };

  it("lists a paid order's physical line with what the warehouse needs", async () => {
    const { order, lines } = await paidTestOrder(db, { contact: { addressLine2: "Hinterhaus", phone: "+49 30 1234567" }, test: false });
    const [pending, ...more] = await pendingOf(order.id);
    expect(more).toEqual([]);
    expect(pending).toEqual({
      orderId: order.id,
      orderNumber: order.number,
      paidAt: order.paidAt,
      lineId: lineOf(lines, "checkout").id,
      productId: "shape",
      productName: lineOf(lines, "checkout").productName,
      packs: 3,
      recipient: "Anna Muster",
      addressLine1: "Hauptstraße 1",
      addressLine2: "Hinterhaus",
      postalCode: "10115",
      city: "Berlin",
      country: "DE",
      phone: "+49 30 1234567",
      email: "a@example.com",
      market: "DE",
      test: false,
    });
  });

  it("flags test orders and lists the oldest payment first", async () => {
    const newer = await paidTestOrder(db);
    const older = await paidTestOrder(db);
    await db.update(orders).set({ paidAt: new Date("2020-01-01T00:00:00Z") }).where(eq(orders.id, older.order.id));
    const rows = (await pendingFulfilment(db)).filter((pending) => [newer.order.id, older.order.id].includes(pending.orderId));
    expect(rows.map((pending) => [pending.orderId, pending.test])).toEqual([
      [older.order.id, true],
      [newer.order.id, true],
    ]);
    const all = await pendingFulfilment(db);
    expect(all.map((pending) => pending.paidAt.getTime())).toEqual(all.map((pending) => pending.paidAt.getTime()).sort((a, b) => a - b));
  });

  it("lists a physical upsell with its order's other lines, and never a digital one", async () => {
    const { order, lines } = await paidTestOrder(db, { upsells: ["ebook-1", "fibergum-1"] });
    expect((await pendingOf(order.id)).map((pending) => pending.lineId)).toEqual([lineOf(lines, "checkout").id, lineOf(lines, "upsell:upsell-2").id]);
  });

  it("leaves out a line given back, and ships the rest of a partly refunded order", async () => {
    const { order, lines } = await paidTestOrder(db, { upsells: ["fibergum-1"] });
    const refunded = await refundOrder(db, providers(), { orderId: order.id, scope: { kind: "lines", lineIds: [lineOf(lines, "upsell:upsell-1").id] }, reason: "damaged", requestKey: randomUUID() });
    expect(refunded.kind).toBe("refunded");
    expect((await orderById(db, order.id))?.status).toBe("partially_refunded");
    expect((await pendingOf(order.id)).map((pending) => pending.lineId)).toEqual([lineOf(lines, "checkout").id]);
  });

  it("leaves out a line whose refund is still pending at the provider", async () => {
    const { order, lines } = await paidTestOrder(db, { upsells: ["fibergum-1"] });
    const [payment] = await db.select().from(payments).where(and(eq(payments.orderId, order.id), eq(payments.purpose, "checkout")));
    if (!payment) throw new Error("no checkout payment");
    await db.insert(refunds).values({ id: randomUUID(), orderId: order.id, paymentId: payment.id, amountMinor: 100, lineIds: [lineOf(lines, "checkout").id], reason: "x", status: "pending", idempotencyKey: randomUUID() });
    await db.insert(refunds).values({ id: randomUUID(), orderId: order.id, paymentId: payment.id, amountMinor: 100, lineIds: [lineOf(lines, "upsell:upsell-1").id], reason: "x", status: "failed", idempotencyKey: randomUUID() });
    expect((await pendingOf(order.id)).map((pending) => pending.lineId)).toEqual([lineOf(lines, "upsell:upsell-1").id]);
  });

  const exclusions: [string, () => Promise<string>][] = [
    ["an order whose funnel is still open", async () => (await paidTestOrder(db, { endFunnel: false })).order.id],
    ["an order never paid", async () => (await placeTestOrder(db)).order.id],
    [
      "an order whose payment failed",
      async () => {
        const { order, payment } = await placeTestOrder(db);
        await applyPaymentOutcome(db, payment.id, { status: "declined", providerRef: null, code: "card_declined" });
        return order.id;
      },
    ],
    [
      "an order fulfilled already",
      async () => {
        const { order } = await paidTestOrder(db);
        await markFulfilled(db, operator, [order.id]);
        return order.id;
      },
    ],
    [
      "an order refunded in full",
      async () => {
        const { order } = await paidTestOrder(db);
        await refundOrder(db, providers(), { orderId: order.id, scope: { kind: "order" }, reason: "x", requestKey: randomUUID() });
        return order.id;
      },
    ],
    [
      "an order withdrawn from",
      async () => {
        const { order } = await paidTestOrder(db);
        await receiveWithdrawal(db, { name: "Anna Muster", orderNumber: order.number, email: order.email, locale: "de_DE", market: "DE" });
        return order.id;
      },
    ],
    [
      "a cancelled order",
      async () => {
        const { order } = await paidTestOrder(db);
        await db.update(orders).set({ status: "cancelled" }).where(eq(orders.id, order.id));
        return order.id;
      },
    ],
    [
      "an erased order",
      async () => {
        const { order } = await paidTestOrder(db);
        await db.update(orders).set({ erasedAt: new Date() }).where(eq(orders.id, order.id));
        return order.id;
      },
    ],
    [
      "an order whose payment is disputed",
      async () => {
        const { order } = await paidTestOrder(db);
        await disputed(order.id);
        return order.id;
      },
    ],
  ];

  it.each(["won", "RESOLVED_SELLER_FAVOUR"])("ships a disputed order again once its dispute is closed %s", async (outcome) => {
    const { order } = await paidTestOrder(db);
    const { paymentId, disputeRef } = await disputed(order.id);
    // Delivered twice: still one dispute, still held.
    await openDispute(db, paymentId, disputeRef);
    expect(await pendingOf(order.id)).toEqual([]);
    await closeDispute(db, paymentId, disputeRef, outcome);
    expect((await pendingOf(order.id)).map((pending) => pending.orderNumber)).toEqual([order.number]);
    // A created event that arrives after the closing one does not hold the order again.
    await openDispute(db, paymentId, disputeRef);
    expect(await pendingOf(order.id)).toHaveLength(1);
  });

  it("holds an order whose dispute closed before its opening was delivered only until then", async () => {
    const { order } = await paidTestOrder(db);
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id));
    if (!payment) throw new Error("no payment");
    await closeDispute(db, payment.id, `dp_${randomUUID()}`, "won");
    expect(await pendingOf(order.id)).toHaveLength(1);
  });

  // Stripe sends no charge.refunded when a dispute is lost: the order is still `paid`, and its money is gone.
  it.each(["lost", "RESOLVED_BUYER_FAVOUR"])("keeps an order held out of the queue, the CSV and parcel entry once its dispute is closed %s", async (outcome) => {
    const { order } = await paidTestOrder(db);
    const { paymentId, disputeRef } = await disputed(order.id);
    await closeDispute(db, paymentId, disputeRef, outcome);
    expect(await pendingOf(order.id)).toEqual([]);
    expect(await markFulfilled(db, operator, [order.id])).toEqual({ fulfilled: [], skipped: [{ orderId: order.id, number: order.number, reason: "disputed" }] });
    expect((await orderById(db, order.id))?.fulfilledAt).toBeNull();
  });

  it.each(exclusions)("leaves out %s", async (_, make) => {
    const orderId = await make();
    expect(await pendingOf(orderId)).toEqual([]);
  });

  it("marks a paid order fulfilled: status, time, event and audit entry", async () => {
    const { order } = await paidTestOrder(db);
    const before = Date.now();
    expect(await markFulfilled(db, operator, [order.id])).toEqual({ fulfilled: [order.number], skipped: [] });
    const after = await orderById(db, order.id);
    expect(after?.status).toBe("fulfilled");
    expect(after?.fulfilledAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const events = await db.select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.type, "fulfilled")));
    expect(events.map((event) => [event.fromStatus, event.toStatus, event.detail])).toEqual([["paid", "fulfilled", { lines: 1 }]]);
    const audit = await db.select().from(auditLog).where(eq(auditLog.orderId, order.id));
    expect(audit.map((entry) => [entry.action, entry.operatorId, entry.operatorEmail, entry.detail])).toEqual([["order_fulfilled", operator.id, operator.email, { lines: 1 }]]);
    expect(JSON.stringify(events.map((event) => event.detail))).not.toContain(order.email);
  });

  it("keeps a partly refunded order's status, setting its fulfilment time and event", async () => {
    const { order, lines } = await paidTestOrder(db, { upsells: ["fibergum-1"] });
    await refundOrder(db, providers(), { orderId: order.id, scope: { kind: "lines", lineIds: [lineOf(lines, "upsell:upsell-1").id] }, reason: "x", requestKey: randomUUID() });
    expect(await markFulfilled(db, operator, [order.id])).toEqual({ fulfilled: [order.number], skipped: [] });
    const after = await orderById(db, order.id);
    expect(after?.status).toBe("partially_refunded");
    expect(after?.fulfilledAt).not.toBeNull();
    const events = await db.select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.type, "fulfilled")));
    expect(events.map((event) => [event.fromStatus, event.toStatus, event.detail])).toEqual([[null, null, { lines: 1, status: "partially_refunded" }]]);
    expect(await pendingOf(order.id)).toEqual([]);
  });

  it("skips an order fulfilled already, writing nothing more", async () => {
    const { order } = await paidTestOrder(db);
    await markFulfilled(db, operator, [order.id]);
    const fulfilledAt = (await orderById(db, order.id))?.fulfilledAt;
    expect(await markFulfilled(db, operator, [order.id, order.id])).toEqual({ fulfilled: [], skipped: [{ orderId: order.id, number: order.number, reason: "already_fulfilled" }] });
    expect((await orderById(db, order.id))?.fulfilledAt).toEqual(fulfilledAt);
    expect(await db.select().from(auditLog).where(eq(auditLog.orderId, order.id))).toHaveLength(1);
  });

  it("fulfils an order once when two operators mark it at the same time", async () => {
    const { order } = await paidTestOrder(db);
    const results = await Promise.all([markFulfilled(db, operator, [order.id]), markFulfilled(db, operator, [order.id])]);
    expect(results.flatMap((result) => result.fulfilled)).toEqual([order.number]);
    expect(results.flatMap((result) => result.skipped.map((skipped) => skipped.reason))).toEqual(["already_fulfilled"]);
    expect(await db.select().from(orderEvents).where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.type, "fulfilled")))).toHaveLength(1);
  });

  const refusals: [FulfilmentRefusal, () => Promise<Order>][] = [
    ["funnel_open", async () => (await paidTestOrder(db, { endFunnel: false })).order],
    ["not_shippable", async () => (await placeTestOrder(db)).order],
    [
      "not_shippable",
      async () => {
        const { order } = await paidTestOrder(db);
        await refundOrder(db, providers(), { orderId: order.id, scope: { kind: "order" }, reason: "x", requestKey: randomUUID() });
        return order;
      },
    ],
    [
      "erased",
      async () => {
        const { order } = await paidTestOrder(db);
        await db.update(orders).set({ erasedAt: new Date() }).where(eq(orders.id, order.id));
        return order;
      },
    ],
    [
      "disputed",
      async () => {
        const { order } = await paidTestOrder(db);
        await disputed(order.id);
        return order;
      },
    ],
    [
      "nothing_to_ship",
      async () => {
        const { order, lines } = await paidTestOrder(db, { upsells: ["ebook-1"] });
        await refundOrder(db, providers(), { orderId: order.id, scope: { kind: "lines", lineIds: [lineOf(lines, "checkout").id] }, reason: "x", requestKey: randomUUID() });
        return order;
      },
    ],
  ];

  it.each(refusals)("refuses with %s, changing nothing, and still fulfils the others", async (reason, make) => {
    const refused = await make();
    const before = await orderById(db, refused.id);
    const { order: shippable } = await paidTestOrder(db);
    expect(await markFulfilled(db, operator, [refused.id, shippable.id])).toEqual({ fulfilled: [shippable.number], skipped: [{ orderId: refused.id, number: refused.number, reason }] });
    expect(await orderById(db, refused.id)).toEqual(before);
    expect(await db.select().from(auditLog).where(eq(auditLog.orderId, refused.id))).toEqual([]);
  });

  it.each([randomUUID(), "not-an-id"])("refuses an order that does not exist (%s)", async (orderId) => {
    expect(await markFulfilled(db, operator, [orderId])).toEqual({ fulfilled: [], skipped: [{ orderId, number: null, reason: "not_found" }] });
  });
});
