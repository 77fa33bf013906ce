import { randomUUID } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { storeOrderTouch, touchOfOrder } from "../attribution/touches.server";
import { directTouch } from "../attribution/touch";
import type { Database } from "../db/database.server";
import { auditLog } from "../operators/schema";
import { feedback, orderEvents, orderLines, orders, payments, refundRequests, withdrawals } from "../orders/schema";
import { outbox } from "../mail/schema";
import { reviewInvitations, reviews } from "../reviews/schema";
import { storeFeedback, storeRefundRequest } from "../orders/submissions.server";
import { claimDue } from "../mail/outbox.server";
import { refundOrder } from "../orders/refund-service.server";
import { receiveWithdrawal } from "../orders/withdrawal.server";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { invitationToken } from "../reviews/invitations.server";
import { submitReview } from "../reviews/reviews.server";
import { paidTestOrder, testOperator } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { downloadDigitalItems } from "../test-support/digital-files";
import type { Operator } from "../operators/audit.server";
import { erasedMailError, erasedOrderEmail, eraseCustomerData, exportCustomerData } from "./privacy.server";
import { recordConversionConsent } from "../conversions/record.server";
import { orderConversions } from "../conversions/schema";

const origin = { locale: "de_DE", market: "DE" };

describe.each(databaseKinds)("a customer's data on %s", (kind) => {
  const database = useTestDatabase(kind);
  let db: Database;
  let operator: Operator;
  beforeAll(async () => {
    db = database.db;
    operator = await testOperator(db, "owner");
  });

  /** Marks one customer's personal values: never part of a UUID, an order number or a reference. */
  const newTag = () => `zx${Math.random().toString().slice(2, 10)}`;
  const newAddress = () => `Kunde.${randomUUID().slice(0, 8)}@Example.com`;

  /**
   * Two orders (one with a refunded upsell reviewed before the refund, one withdrawn from), a refund
   * request, feedback and the e-mails all of that queued, for one address; some of it typed in
   * another case.
   */
  async function customer(email: string, tag = newTag()) {
    const contact = { email, givenName: "Jürgen", familyName: `Schäfer-${tag}`, addressLine1: `Lindenweg ${tag}`, addressLine2: "2. OG", postalCode: "80331", city: "München", phone: `+49 89 ${tag}` };
    const first = await paidTestOrder(db, { contact, upsells: ["ebook-1"] });
    const second = await paidTestOrder(db, { contact });
    const gateway = new TestGateway(db);
    const upsellLine = first.lines.find((line) => line.source !== "checkout");
    if (!upsellLine) throw new Error("no upsell line");
    // A digital item is invited to a review once it has been downloaded.
    await downloadDigitalItems(db, first.order);
    const [invitation] = await db.select().from(reviewInvitations).where(eq(reviewInvitations.orderLineId, upsellLine.id));
    const reviewed = await submitReview(db, "key", invitationToken("key", invitation?.id ?? ""), { rating: 5, body: `Tolle Rezepte, Jürgen ${tag}` });
    if (reviewed.kind !== "stored") throw new Error(`expected a review, got ${reviewed.kind}`);
    await refundOrder(db, new Map([["test", gateway]]), { orderId: first.order.id, scope: { kind: "lines", lineIds: [upsellLine.id] }, reason: "not wanted", requestKey: randomUUID() });
    await receiveWithdrawal(db, { name: `Jürgen Schäfer-${tag}`, orderNumber: second.order.number, email: email.toLowerCase(), locale: "de_DE", market: "DE" });
    await storeRefundRequest(db, { orderNumber: first.order.number, email: email.toUpperCase(), reason: "damaged", message: `Die Dose war offen, bitte melden Sie sich unter 0171 ${tag}.` }, origin);
    await storeFeedback(db, { rating: "4", comment: `Schnelle Lieferung, Jürgen ${tag}`, email }, origin);
    // The first order's buyer consented to marketing: what the ad platforms are told of is kept.
    await recordConversionConsent(db, first.order.id, { fbclid: "IwAR-privacy", fbcCookie: null, gaCookie: null, clientAddress: "203.0.113.9", userAgent: "Mozilla/5.0", pageUrl: "https://shop.example.test/checkout/de" });
    return { first, second };
  }

  it("exports everything stored about an address, whatever its case", async () => {
    const email = newAddress();
    const { first, second } = await customer(email, "4711");
    const exported = await exportCustomerData(db, `  ${email.toUpperCase()} `);
    if (!exported) throw new Error("expected an export");
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
    expect(Date.parse(exported.exportedAt)).not.toBeNaN();
    expect(Object.keys(exported.explanation).sort()).toEqual(["emails", "feedback", "orders", "refundRequests", "withdrawals"]);
    expect(exported.orders[0]?.reviews).toEqual([expect.objectContaining({ productId: "ebook", rating: 5, text: "Tolle Rezepte, Jürgen 4711", displayName: "Jürgen S.", language: "de", status: "pending" })]);
    expect(exported.orders[1]?.reviews).toEqual([]);
    expect(exported.orders[0]?.adPlatforms).toMatchObject({ clickId: expect.stringMatching(/\.IwAR-privacy$/), clientAddress: "203.0.113.9", userAgent: "Mozilla/5.0", clearedAt: null });
    expect(exported.orders[1]?.adPlatforms).toBeNull();

    expect(exported.orders.map((order) => [order.number, order.status])).toEqual([
      [first.order.number, "partially_refunded"],
      [second.order.number, "withdrawn"],
    ]);
    const [one] = exported.orders;
    expect(one?.contact).toEqual({ email, givenName: "Jürgen", familyName: "Schäfer-4711", addressLine1: "Lindenweg 4711", addressLine2: "2. OG", postalCode: "80331", city: "München", country: "DE", phone: "+49 89 4711" });
    expect(one?.lines.map((line) => [line.productId, line.kind])).toEqual([
      ["shape", "supplement"],
      ["ebook", "digital"],
    ]);
    expect(one?.lines[1]?.digitalConsentAt).not.toBeNull();
    expect(one?.payments.map((payment) => [payment.purpose, payment.status])).toEqual([
      ["checkout", "succeeded"],
      ["upsell:upsell-1", "succeeded"],
    ]);
    expect(one?.refunds.map((refund) => [refund.amountMinor, refund.status])).toEqual([[990, "succeeded"]]);
    expect(one?.events.map((event) => event.type)).toEqual(expect.arrayContaining(["order_created", "payment_succeeded", "upsell_accepted", "funnel_ended", "refund_succeeded", "refund_requested"]));

    expect(exported.withdrawals).toEqual([expect.objectContaining({ name: "Jürgen Schäfer-4711", email: email.toLowerCase(), orderNumber: second.order.number, status: "received" })]);
    expect(exported.refundRequests).toEqual([expect.objectContaining({ orderNumber: first.order.number, email: email.toUpperCase(), reason: "damaged", status: "open" })]);
    expect(exported.feedback).toEqual([expect.objectContaining({ rating: 4, comment: "Schnelle Lieferung, Jürgen 4711", email })]);
    expect(exported.emails.map((mail) => mail.kind).sort()).toEqual(["feedback", "order-confirmation", "order-confirmation", "refund", "refund-request", "review-invitation", "withdrawal"]);
    expect(exported.emails.find((mail) => mail.kind === "withdrawal")?.orderNumber).toBe(second.order.number);
    expect(exported.emails.every((mail) => !("payload" in mail) && !("recipient" in mail))).toBe(true);

    // No key to the provider's records: references, saved methods, idempotency keys.
    const stored = await db.select().from(payments).where(inArray(payments.orderId, [first.order.id, second.order.id]));
    const text = JSON.stringify(exported);
    for (const payment of stored) {
      for (const secret of [payment.providerRef, payment.reusableMethodRef, payment.idempotencyKey]) if (secret) expect(text).not.toContain(secret);
    }
  });

  it("finds feedback alone, and nothing for an address never used", async () => {
    const email = newAddress();
    await storeFeedback(db, { rating: "5", comment: "Gut", email }, origin);
    expect((await exportCustomerData(db, email))?.feedback).toHaveLength(1);
    expect(await exportCustomerData(db, newAddress())).toBeNull();
    expect(await exportCustomerData(db, "  ")).toBeNull();
  });

  it("erases the buyer's e-mail, name and country kept with a payment attempt for its replay", async () => {
    const email = newAddress();
    const { order } = await paidTestOrder(db, { contact: { email, givenName: "Jürgen", familyName: "Schäfer" } });
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id));
    if (!payment) throw new Error("no payment");
    // As the payment attempt keeps what its first call to the provider sent.
    const kept = { kind: "start", input: { customer: { email, name: "Jürgen Schäfer", country: "DE" }, orderNumber: order.number, amountMinor: payment.amountMinor, currency: "EUR", method: "card", details: {} } };
    await db.update(payments).set({ providerRequest: kept }).where(eq(payments.id, payment.id));
    expect((await eraseCustomerData(db, operator, email)).kind).toBe("erased");
    expect((await db.select().from(payments).where(eq(payments.orderId, order.id))).map((row) => row.providerRequest)).toEqual([null]);
  });

  it("exports where an order's visit came from, and erasure takes its click id, which names one person's click", async () => {
    const email = newAddress();
    const { order } = await paidTestOrder(db, { contact: { email } });
    const touch = { ...directTouch, source: "meta", medium: "paid_social", campaign: "spring", clickIdKind: "fbclid" as const, clickId: "IwAR2x", landingPath: "/offer/de" };
    await storeOrderTouch(db, order.id, touch);
    expect((await exportCustomerData(db, email))?.orders[0]?.touch).toEqual(touch);
    expect((await eraseCustomerData(db, operator, email)).kind).toBe("erased");
    expect(await touchOfOrder(db, order.id)).toEqual({ ...touch, clickId: null });
  });

  it("anonymises every personal field and keeps what the accounts need", async () => {
    const email = newAddress();
    const tag = newTag();
    const { first, second } = await customer(email, tag);
    const bystander = await paidTestOrder(db, { contact: { email: newAddress() } });
    const orderIds = [first.order.id, second.order.id];
    const before = await db.select().from(orders).where(inArray(orders.id, orderIds)).orderBy(orders.createdAt);
    const linesBefore = await db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(orderLines.id);
    const pendingBefore = await db.select({ id: outbox.id }).from(outbox).where(sql`lower(${outbox.recipient}) = ${email.toLowerCase()} and ${outbox.status} = 'pending'`);
    expect(pendingBefore.length).toBeGreaterThan(0);

    const result = await eraseCustomerData(db, operator, email.toLowerCase());
    expect(result).toEqual({ kind: "erased", counts: { orders: 2, withdrawals: 1, refundRequests: 1, feedback: 1, emails: 7, emailsCancelled: pendingBefore.length, reviews: 1 } });
    expect(await db.select().from(reviews).where(inArray(reviews.orderId, orderIds))).toEqual([]);

    const after = await db.select().from(orders).where(inArray(orders.id, orderIds)).orderBy(orders.createdAt);
    for (const [index, order] of after.entries()) {
      const was = before[index];
      if (!was) throw new Error("order missing");
      expect(order).toEqual({
        ...was,
        email: erasedOrderEmail(was.number),
        givenName: "—",
        familyName: "Erased",
        addressLine1: "",
        addressLine2: "",
        postalCode: "",
        city: "",
        phone: "",
        erasedAt: expect.any(Date),
      });
      expect(order.email).toMatch(/^erased\+vn-[a-z0-9-]+@invalid$/);
    }
    expect(await db.select().from(orderLines).where(inArray(orderLines.orderId, orderIds)).orderBy(orderLines.id)).toEqual(linesBefore);

    const [withdrawal] = await db.select().from(withdrawals).where(eq(withdrawals.orderId, second.order.id));
    expect(withdrawal).toMatchObject({ name: "Erased", email: `erased+${withdrawal?.reference.toLowerCase()}@invalid`, orderNumber: second.order.number, status: "received" });
    const [request] = await db.select().from(refundRequests).where(eq(refundRequests.orderId, first.order.id));
    expect(request).toMatchObject({ email: "erased@invalid", message: "", reason: "damaged", orderNumber: first.order.number });
    expect(await db.select().from(feedback).where(sql`lower(${feedback.email}) = ${email.toLowerCase()}`)).toEqual([]);
    expect(await db.select().from(orderConversions).where(inArray(orderConversions.orderId, orderIds))).toEqual([]);

    const mails = await db.select().from(outbox).where(inArray(outbox.orderId, orderIds));
    expect(mails.length).toBeGreaterThan(0);
    for (const mail of mails) {
      expect(mail.recipient).toBe("erased@invalid");
      expect(mail.payload).toEqual({});
      expect(mail.status).not.toBe("pending");
    }
    const cancelled = await db.select().from(outbox).where(inArray(outbox.id, pendingBefore.map((row) => row.id)));
    expect(cancelled.map((mail) => [mail.status, mail.lastError])).toEqual(cancelled.map(() => ["failed", erasedMailError]));

    // Nothing about the person anywhere any more, and the worker has nothing to send them.
    const due = await claimDue(db, 1000, new Date(Date.now() + 24 * 60 * 60 * 1000));
    const cancelledIds = pendingBefore.map((row) => row.id);
    expect(due.filter((mail) => cancelledIds.includes(mail.id))).toEqual([]);
    expect(await exportCustomerData(db, email)).toBeNull();
    const everything = JSON.stringify([
      await db.select().from(orders).where(inArray(orders.id, orderIds)),
      await db.select().from(withdrawals),
      await db.select().from(refundRequests),
      await db.select().from(feedback),
      await db.select().from(reviews),
      await db.select().from(outbox),
      await db.select().from(orderEvents).where(inArray(orderEvents.orderId, orderIds)),
      await db.select().from(auditLog),
    ]).toLowerCase();
    expect(everything).not.toContain(email.toLowerCase());
    expect(everything).not.toContain(tag);

    // The other buyer is untouched.
    expect((await db.select().from(orders).where(eq(orders.id, bystander.order.id)))[0]).toEqual(bystander.order);
  });

  it("records the erasure per order and in a summary, without the address", async () => {
    const email = newAddress();
    const { first, second } = await customer(email);
    await eraseCustomerData(db, operator, email);
    const entries = await db.select().from(auditLog).where(eq(auditLog.action, "customer_erased")).orderBy(auditLog.id);
    const ours = entries.filter((entry) => entry.orderId === first.order.id || entry.orderId === second.order.id);
    expect(ours.map((entry) => [entry.orderId, entry.operatorId])).toEqual([
      [first.order.id, operator.id],
      [second.order.id, operator.id],
    ]);
    expect(entries.at(-1)).toMatchObject({ orderId: null, operatorId: operator.id, detail: { orders: 2, withdrawals: 1, refundRequests: 1, feedback: 1, emails: 7, reviews: 1 } });
    expect(JSON.stringify(entries).toLowerCase()).not.toContain(email.toLowerCase());
  });

  it("changes nothing for an address with nothing stored, nor for one erased already", async () => {
    const email = newAddress();
    await customer(email);
    const snapshot = async () => ({
      orders: await db.select().from(orders).orderBy(orders.id),
      withdrawals: await db.select().from(withdrawals).orderBy(withdrawals.id),
      refundRequests: await db.select().from(refundRequests).orderBy(refundRequests.id),
      feedback: await db.select().from(feedback).orderBy(feedback.id),
      outbox: await db.select().from(outbox).orderBy(outbox.id),
      audit: await db.select().from(auditLog).orderBy(auditLog.id),
    });
    const before = await snapshot();
    expect(await eraseCustomerData(db, operator, newAddress())).toEqual({ kind: "unknown" });
    expect(await eraseCustomerData(db, operator, "")).toEqual({ kind: "unknown" });
    expect(await snapshot()).toEqual(before);

    expect((await eraseCustomerData(db, operator, email)).kind).toBe("erased");
    const erased = await snapshot();
    expect(await eraseCustomerData(db, operator, email)).toEqual({ kind: "unknown" });
    expect(await snapshot()).toEqual(erased);
  });
});
