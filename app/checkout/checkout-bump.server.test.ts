import { and, eq, inArray } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCode } from "../codes/codes.server";
import { storefrontStateContext } from "../market/request-context";
import { createOrderCookie } from "../orders/order-access.server";
import { linesOf } from "../orders/order-records.server";
import { orders, payments } from "../orders/schema";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { installStore, type Store } from "../store/store.server";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { storefrontState } from "../test-support/storefront";
import { browserCookie, newBrowserId, newCheckoutToken } from "./checkout-token.server";
import { loadCheckout, submitCheckout, type CheckoutActionData } from "./checkout.server";

const signingKey = "test-signing-key";
const origin = "http://store.test";

const contact = { givenName: "Lena", familyName: "Beispiel", addressLine1: "Hauptstraße 5", addressLine2: "", postalCode: "10115", city: "Berlin", country: "DE", phone: "" };
const card = { method: "card", cardNumber: "4242424242424242", cardExpiry: "12/30", cardCvc: "123" };

/** Sends the German checkout's form for 3 boxes of Shape (89,70 €; its add-on the recipe ebook, 9,90 €) as a browser without JavaScript does. */
async function send(fields: Record<string, string>, browser = newBrowserId()): Promise<{ status: number; data: CheckoutActionData | null; cookie: string }> {
  const body = new URLSearchParams({ token: newCheckoutToken(signingKey, "shape-3", browser), bundle: "shape-3", ...fields });
  const request = new Request(`${origin}/checkout/de?bundle=shape-3`, { method: "POST", body, headers: { Cookie: browserCookie(browser, false).split(";")[0] ?? "", "Content-Type": "application/x-www-form-urlencoded" } });
  const context = new RouterContextProvider();
  context.set(storefrontStateContext, storefrontState("DE"));
  try {
    const answer = await submitCheckout({ request, params: { locale: "de" }, context });
    return { status: answer.init?.status ?? 200, data: answer.data, cookie: new Headers(answer.init?.headers).get("Set-Cookie")?.split(";")[0] ?? "" };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, data: null, cookie: "" };
    throw thrown;
  }
}

describe.each(databaseKinds)("the checkout's add-on on %s", (kind) => {
  const database = useTestDatabase(kind);
  beforeAll(async () => {
    installStore({
      db: database.db,
      settings: { publicUrl: origin, storeMode: "test", providers: {} },
      providers: new Map([["test", new TestGateway(database.db)]]),
      signingKey,
      orderCookie: createOrderCookie(signingKey),
    } as unknown as Store);
    await createCode(database.db, {
      code: "TENOFF",
      reduction: { kind: "percent", percent: 10 },
      minimumMinor: {},
      countries: [],
      validFrom: null,
      validUntil: null,
      maxRedemptions: null,
      oncePerCustomer: false,
      firstOrderOnly: false,
      active: true,
    });
  });
  afterAll(() => installStore(undefined));

  const orderOf = async (email: string) => {
    const [order] = await database.db.select().from(orders).where(eq(orders.email, email));
    return order ? { order, lines: await linesOf(database.db, order.id) } : null;
  };

  it.each([
    // what the form sends, the answer, the order's total and lines (null: no order).
    ["not ticked", { quotedTotal: "8970", quotedBumpTotal: "9960" }, 303, 8970, ["shape-3"]],
    ["ticked, with the consent", { bump: "yes", digitalConsent: "yes", quotedTotal: "8970", quotedBumpTotal: "9960" }, 303, 9960, ["shape-3", "ebook-1"]],
    ["ticked, without the consent its digital item needs", { bump: "yes", quotedTotal: "8970", quotedBumpTotal: "9960" }, 400, null, null],
    ["ticked, the page having shown another total with it", { bump: "yes", digitalConsent: "yes", quotedTotal: "8970", quotedBumpTotal: "9900" }, 409, null, null],
    ["ticked with a code applied: the code over both lines", { bump: "yes", digitalConsent: "yes", appliedCode: "TENOFF", quotedTotal: "8073", quotedBumpTotal: "8964" }, 303, 8964, ["shape-3", "ebook-1"]],
    ["not ticked with a code applied", { appliedCode: "TENOFF", quotedTotal: "8073", quotedBumpTotal: "8964" }, 303, 8073, ["shape-3"]],
  ] as const)("the box %s", async (_case, fields, status, totalMinor, lines) => {
    const email = `${kind}-${_case.replace(/\W+/g, "-")}@example.com`;
    const answer = await send({ ...contact, ...card, email, ...fields });
    expect(answer.status).toBe(status);
    const placed = await orderOf(email);
    if (totalMinor === null) {
      expect(placed).toBeNull();
      if (status === 400) expect(answer.data?.errors).toEqual({ digitalConsent: true });
      // The form comes back with the box as the buyer left it, and both totals to choose from.
      expect(answer.data?.values.bump).toBe("yes");
      expect(answer.data?.bumpQuote?.totals.totalMinor).toBe(9960);
      expect(answer.data?.quote?.totals.totalMinor).toBe(8970);
      return;
    }
    expect(placed?.order).toMatchObject({ status: "paid", totalMinor });
    expect(placed?.lines.map((line) => line.bundleId).sort()).toEqual([...lines].sort());
    expect(placed?.lines.reduce((sum, line) => sum + line.grossMinor, 0)).toBe(totalMinor - (placed?.order.deliveryMinor ?? 0));
  });

  it("back from a declined payment, the page keeps the box ticked and the code spread over both lines", async () => {
    const browser = newBrowserId();
    const declined = await send({ ...contact, ...card, cardNumber: "4000000000000002", email: "declined@example.com", bump: "yes", digitalConsent: "yes", appliedCode: "TENOFF", quotedTotal: "8073", quotedBumpTotal: "8964" }, browser);
    expect(declined.status).toBe(402);
    const request = new Request(`${origin}/checkout/de?bundle=shape-3`, { headers: { Cookie: `${declined.cookie}; ${browserCookie(browser, false).split(";")[0] ?? ""}` } });
    const context = new RouterContextProvider();
    context.set(storefrontStateContext, storefrontState("DE"));
    const page = (await loadCheckout({ request, params: { locale: "de" }, context })) as { data: { values?: Record<string, string>; bump?: { quote: { totals: { totalMinor: number } } } | null } };
    expect(page.data.values).toMatchObject({ bump: "yes", appliedCode: "TENOFF" });
    expect(page.data.bump?.quote.totals.totalMinor).toBe(8964);
  });

  it.each([
    // what the declined form sent, what the buyer sends then, the total then charged and its lines.
    ["unticks the add-on", { bump: "yes", digitalConsent: "yes", quotedTotal: "8970", quotedBumpTotal: "9960" }, { quotedTotal: "8970", quotedBumpTotal: "9960" }, 8970, ["shape-3"]],
    ["ticks the add-on", { quotedTotal: "8970", quotedBumpTotal: "9960" }, { bump: "yes", digitalConsent: "yes", quotedTotal: "8970", quotedBumpTotal: "9960" }, 9960, ["shape-3", "ebook-1"]],
    ["applies a code", { quotedTotal: "8970", quotedBumpTotal: "9960" }, { appliedCode: "TENOFF", quotedTotal: "8073", quotedBumpTotal: "8964" }, 8073, ["shape-3"]],
    ["removes the code", { appliedCode: "TENOFF", quotedTotal: "8073", quotedBumpTotal: "8964" }, { quotedTotal: "8970", quotedBumpTotal: "9960" }, 8970, ["shape-3"]],
  ] as const)("back from a declined payment, a buyer who %s is charged once, the total the page then showed", async (_case, first, then, totalMinor, lines) => {
    const browser = newBrowserId();
    const token = newCheckoutToken(signingKey, "shape-3", browser);
    const email = `${kind}-retry-${_case.replace(/\W+/g, "-")}@example.com`;
    expect((await send({ ...contact, ...card, cardNumber: "4000000000000002", email, token, ...first }, browser)).status).toBe(402);
    // The changed form, sent twice (a double click): one order holds it, paid once.
    expect((await send({ ...contact, ...card, email, token, ...then }, browser)).status).toBe(303);
    expect((await send({ ...contact, ...card, email, token, ...then }, browser)).status).toBe(409);
    const placed = await database.db.select().from(orders).where(eq(orders.email, email));
    const paid = placed.filter((order) => order.paidAt !== null);
    expect(paid.map((order) => order.totalMinor)).toEqual([totalMinor]);
    expect((await linesOf(database.db, paid[0]?.id ?? "")).map((line) => line.bundleId)).toEqual(lines);
    // Sent once more as it was first declined (the back button): the form has paid, nothing more is charged.
    expect((await send({ ...contact, ...card, email, token, ...first }, browser)).status).toBe(409);
    const charged = await database.db.select().from(payments).where(and(inArray(payments.orderId, placed.map((order) => order.id)), eq(payments.status, "succeeded")));
    expect(charged.map((payment) => payment.amountMinor)).toEqual([totalMinor]);
  });

  it("applying a code answers with the quotes without and with the add-on, both discounted", async () => {
    const { data } = await send({ ...contact, email: "apply@example.com", code: "TENOFF", intent: "apply-code" });
    expect(data?.quote?.totals.totalMinor).toBe(8073);
    expect(data?.bumpQuote?.totals.totalMinor).toBe(8964);
    expect(data?.bumpQuote?.lines.map((line) => line.discountMinor)).toEqual([897, 99]);
  });
});
