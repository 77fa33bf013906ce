import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createCode } from "../codes/codes.server";
import { marketFor } from "../market/markets";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { testBuyer, testToday } from "../test-support/orders";
import { assessCode, redemptionOf } from "./code-redemptions.server";
import { linesOf, orderById } from "./order-records.server";
import { applyPaymentOutcome, CodeRefused, placeOrder, supersedeOpenAttempts, type NewOrder } from "./order-service.server";
import { discountedQuote, quoteCheckout } from "./quote.server";
import { previewRefund } from "./refund-service.server";
import { codeRedemptions } from "./schema";
import { outbox } from "../mail/schema";
import { composeMail } from "../emails/compose.server";
import { orderDetail } from "../admin/order-queries.server";
import { codeTerms } from "../test-support/code-terms";

const market = marketFor("DE");
const paying = { provider: "test", method: "card", returnPath: "/checkout/de?bundle=shape-3" };


/** A checkout of 3 boxes of Shape (89,70 €) with the code's 10 % (8,97 €) taken off, as the checkout places it. */
function codedOrder(code: string, email = testBuyer.email, token = randomUUID()): NewOrder {
  const quote = quoteCheckout(market, "shape-3", new Date());
  if (!quote) throw new Error("shape-3 is not for sale");
  const coded = discountedQuote(market, quote, { code, discountMinor: Math.round(quote.totals.itemsMinor / 10) });
  return {
    checkoutToken: token,
    market: "DE",
    locale: "de_DE",
    currency: "EUR",
    contact: { ...testBuyer, email },
    lines: coded.lines,
    totals: coded.totals,
    funnelSrc: null,
    test: true,
    digitalConsent: false,
    code: coded.discount ?? null,
  };
}

const succeeded = { status: "succeeded", providerRef: "tgc_coded", reusableMethodRef: null } as const;
const declined = { status: "declined", providerRef: "tgc_coded", code: "card_declined" } as const;

describe.each(databaseKinds)("orders with a code on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("stores the discounted lines and totals, reserves the code with the order and keeps it when paid", async () => {
    await createCode(database.db, codeTerms("KEEPME"));
    const placed = await placeOrder(database.db, codedOrder("KEEPME"), paying);
    if (placed.kind !== "pay") throw new Error("expected a payment");
    expect(placed.order).toMatchObject({ itemsMinor: 8073, totalMinor: 8073, deliveryMinor: 0 });
    expect(placed.payment.amountMinor).toBe(8073);
    const [line] = await linesOf(database.db, placed.order.id);
    // 7 % VAT of the discounted 80,73 €, not of the price before the code.
    expect(line).toMatchObject({ grossMinor: 8073, vatMinor: 528, discountMinor: 897 });
    expect(await redemptionOf(database.db, placed.order.id)).toEqual({ code: "KEEPME", discountMinor: 897, status: "reserved" });

    await applyPaymentOutcome(database.db, placed.payment.id, succeeded);
    expect(await redemptionOf(database.db, placed.order.id)).toMatchObject({ status: "kept" });
    // A refund of the line never gives back more than was paid for it.
    expect(await previewRefund(database.db, placed.order.id, { kind: "lines", lineIds: [line?.id ?? 0] })).toMatchObject({ kind: "due", amountMinor: 8073 });
    expect(await previewRefund(database.db, placed.order.id, { kind: "order" })).toMatchObject({ kind: "due", amountMinor: 8073 });

    // The confirmation e-mail and the back office name the code and what it took off.
    const [mailRow] = await database.db.select().from(outbox).where(eq(outbox.dedupeKey, `order-confirmation:${placed.order.id}`));
    if (!mailRow) throw new Error("expected a confirmation e-mail");
    const mail = await composeMail(mailRow, { db: database.db, from: "Store <shop@example.com>", publicUrl: "https://shop.example", signingKey: "test-signing-key" });
    const mailText = mail?.text.replace(/\s/g, " ") ?? "";
    // As at the checkout: the line at its price before the code, then the code's own row, then the total paid.
    expect(mailText).toMatch(/89,70 €.*Code KEEPME: -8,97 €.*80,73 €/);
    expect((await orderDetail(database.db, placed.order.number))?.redemption).toEqual({ code: "KEEPME", discountMinor: 897, status: "kept" });
  });

  it("releases the code when the payment fails, and takes it again when the buyer pays again", async () => {
    await createCode(database.db, codeTerms("RETRYME", { maxRedemptions: 1 }));
    const token = randomUUID();
    const placed = await placeOrder(database.db, codedOrder("RETRYME", testBuyer.email, token), paying);
    if (placed.kind !== "pay") throw new Error("expected a payment");
    const failed = await applyPaymentOutcome(database.db, placed.payment.id, declined);
    expect(failed.order.status).toBe("payment_failed");
    expect(await redemptionOf(database.db, placed.order.id)).toMatchObject({ status: "released" });
    expect(await assessCode(database.db, { code: "RETRYME", email: "other@example.com", country: "DE", currency: "EUR", linesMinor: 8970, now: testToday })).toMatchObject({ ok: true });

    const retry = await placeOrder(database.db, codedOrder("RETRYME", testBuyer.email, token), paying);
    expect(retry.kind).toBe("pay");
    expect(await redemptionOf(database.db, placed.order.id)).toMatchObject({ status: "reserved" });
  });

  it("refuses to place an order whose code was taken meanwhile, and keeps nothing of it", async () => {
    const created = await createCode(database.db, codeTerms("LASTONE", { maxRedemptions: 1 }));
    const first = await placeOrder(database.db, codedOrder("LASTONE", "first@example.com"), paying);
    expect(first.kind).toBe("pay");
    const token = randomUUID();
    await expect(placeOrder(database.db, codedOrder("LASTONE", "second@example.com", token), paying)).rejects.toBeInstanceOf(CodeRefused);
    const rows = await database.db
      .select()
      .from(codeRedemptions)
      .where(eq(codeRedemptions.codeId, created?.id ?? ""));
    expect(rows.map((row) => row.status)).toEqual(["reserved"]);
    expect(first.kind === "pay" && (await orderById(database.db, first.order.id))?.status).toBe("pending_payment");
  });

  it("lets only one of two buyers racing for a code's last redemption have it", async () => {
    await createCode(database.db, codeTerms("RACE", { maxRedemptions: 1 }));
    const results = await Promise.allSettled([placeOrder(database.db, codedOrder("RACE", "one@example.com"), paying), placeOrder(database.db, codedOrder("RACE", "two@example.com"), paying)]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((result) => result.status === "rejected" && result.reason instanceof CodeRefused)).toHaveLength(1);
  });

  it("releases the code of an order left for another one", async () => {
    await createCode(database.db, codeTerms("LEFTME"));
    const placed = await placeOrder(database.db, codedOrder("LEFTME"), paying);
    if (placed.kind !== "pay") throw new Error("expected a payment");
    await supersedeOpenAttempts(database.db, placed.order.id, randomUUID());
    expect(await redemptionOf(database.db, placed.order.id)).toMatchObject({ status: "released" });
    const [row] = await database.db.select().from(codeRedemptions).where(eq(codeRedemptions.orderId, placed.order.id));
    expect(row?.settledAt).not.toBeNull();
  });
});
