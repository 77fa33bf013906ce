import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database.server";
import { orders } from "../orders/schema";
import { outbox } from "../mail/schema";
import { reviewInvitations } from "./schema";
import { markFulfilled } from "../test-support/fulfilment";
import { downloadDigitalItems } from "../test-support/digital-files";
import { composeMail } from "../emails/compose.server";
import { refundOrder } from "../orders/refund-service.server";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { paidTestOrder, testOperator } from "../test-support/back-office";
import { useTestDatabase } from "../test-support/databases";
import { invitationIdOf } from "./invitations.server";
import { submitReview } from "./reviews.server";

const context = { from: "Store <shop@example.com>", publicUrl: "https://shop.example", signingKey: "test-signing-key" };

describe("the invitation to review", () => {
  const database = useTestDatabase("pglite");
  let db: Database;
  beforeAll(() => {
    db = database.db;
  });

  async function invitationMail(orderId: string, kind: "digital" | "supplement") {
    // Physical items share one e-mail per order; each digital item has its own, after its first download.
    const [row] = await db.select().from(outbox).where(and(eq(outbox.orderId, orderId), like(outbox.dedupeKey, `review-invitation:${orderId}:${kind}%`)));
    if (!row) throw new Error("expected an invitation in the outbox");
    return { row, mail: await composeMail(row, { db, ...context }) };
  }

  /** The review links of a message, as the buyer's mail program shows them. */
  const linksOf = (text: string) => [...text.matchAll(/https:\/\/shop\.example\/review\/de\?invitation=([^\s]+)/g)].map((match) => decodeURIComponent(match[1] ?? ""));

  it("links each physical product to its own signed review page, in the order's language, and leaves out links used meanwhile", async () => {
    const { order } = await paidTestOrder(db, { upsells: ["collagen-1"] });
    await markFulfilled(db, await testOperator(db), [order.id]);
    const { row, mail } = await invitationMail(order.id, "supplement");
    expect(row.recipient).toBe(order.email);
    expect(mail?.subject).toBe("Wie gefällt Ihnen Ihre Vitanor-Bestellung?");
    expect(mail?.text).toContain("Hallo Anna,");
    expect(mail?.text).toContain(`Bestellung ${order.number}`);
    expect(mail?.text).toContain("Testmodus");
    const links = linksOf(mail?.text ?? "");
    expect(links).toHaveLength(2);
    const invited = await db.select().from(reviewInvitations).where(eq(reviewInvitations.orderId, order.id));
    expect(links.map((token) => invitationIdOf(context.signingKey, token)).sort()).toEqual(invited.map((invitation) => invitation.id).sort());
    expect(mail?.html).toContain("Vitanor Shape bewerten");

    const [first] = links;
    await submitReview(db, context.signingKey, first ?? "", { rating: 5, body: "Prima." });
    const again = await composeMail(row, { db, ...context });
    expect(linksOf(again?.text ?? "")).toEqual(links.slice(1));
  });

  it("is not sent once every link is used", async () => {
    const { order } = await paidTestOrder(db, { upsells: ["ebook-1"] });
    await downloadDigitalItems(db, order, { reviewDelayDays: 0 });
    const { row, mail } = await invitationMail(order.id, "digital");
    const [token] = linksOf(mail?.text ?? "");
    await submitReview(db, context.signingKey, token ?? "", { rating: 4, body: "Gute Rezepte." });
    expect(await composeMail(row, { db, ...context })).toBeNull();
  });

  it("is not sent for an order refunded in full before it was due", async () => {
    const { order } = await paidTestOrder(db);
    await markFulfilled(db, await testOperator(db), [order.id]);
    await db.update(orders).set({ status: "refunded" }).where(eq(orders.id, order.id));
    const { mail } = await invitationMail(order.id, "supplement");
    expect(mail).toBeNull();
  });

  it("leaves out a product refunded on its own, and is not sent once every product is", async () => {
    const { order, lines } = await paidTestOrder(db, { upsells: ["collagen-1"] });
    await markFulfilled(db, await testOperator(db), [order.id]);
    const refundLine = async (source: string) => {
      const line = lines.find((candidate) => candidate.source === source);
      if (!line) throw new Error(`no line from ${source}`);
      const providers = new Map([["test", new TestGateway(db)]]);
      await refundOrder(db, providers, { orderId: order.id, scope: { kind: "lines", lineIds: [line.id] }, reason: "damaged", requestKey: randomUUID() });
    };
    await refundLine("upsell:upsell-1");
    const { row, mail } = await invitationMail(order.id, "supplement");
    expect(linksOf(mail?.text ?? "")).toHaveLength(1);
    expect(mail?.html).toContain("Vitanor Shape bewerten");
    expect(mail?.html).not.toContain("Collagen");

    await refundLine("checkout");
    expect(await composeMail(row, { db, ...context })).toBeNull();
  });
});
