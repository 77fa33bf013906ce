import { eq } from "drizzle-orm";
import { RouterContextProvider } from "react-router";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCode, setCodeActive } from "../codes/codes.server";
import { discountCodes } from "../codes/schema";
import { storefrontStateContext } from "../market/request-context";
import { createOrderCookie } from "../orders/order-access.server";
import { orders } from "../orders/schema";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { installStore, type Store } from "../store/store.server";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { storefrontState } from "../test-support/storefront";
import { browserCookie, newBrowserId, newCheckoutToken } from "./checkout-token.server";
import { submitCheckout, type CheckoutActionData } from "./checkout.server";
import { codeTerms } from "../test-support/code-terms";

const signingKey = "test-signing-key";
const origin = "http://store.test";


const contact = { email: "lena@example.com", givenName: "Lena", familyName: "Beispiel", addressLine1: "Hauptstraße 5", addressLine2: "", postalCode: "10115", city: "Berlin", country: "DE", phone: "" };
const card = { method: "card", cardNumber: "4242424242424242", cardExpiry: "12/30", cardCvc: "123" };

/** Sends the German checkout's form for 3 boxes of Shape (89,70 €) as a browser does, and reads the answer. */
async function send(fields: Record<string, string>): Promise<{ status: number; data: CheckoutActionData | null; location: string | null }> {
  const browser = newBrowserId();
  const body = new URLSearchParams({ token: newCheckoutToken(signingKey, "shape-3", browser), bundle: "shape-3", ...fields });
  const request = new Request(`${origin}/checkout/de?bundle=shape-3`, { method: "POST", body, headers: { Cookie: browserCookie(browser, false).split(";")[0] ?? "", "Content-Type": "application/x-www-form-urlencoded" } });
  const context = new RouterContextProvider();
  context.set(storefrontStateContext, storefrontState("DE"));
  try {
    const answer = await submitCheckout({ request, params: { locale: "de" }, context });
    return { status: answer.init?.status ?? 200, data: answer.data, location: null };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, data: null, location: thrown.headers.get("Location") };
    throw thrown;
  }
}

describe.each(databaseKinds)("the checkout's code on %s", (kind) => {
  const database = useTestDatabase(kind);
  beforeAll(async () => {
    installStore({
      db: database.db,
      settings: { publicUrl: origin, storeMode: "test", providers: {} },
      providers: new Map([["test", new TestGateway(database.db)]]),
      signingKey,
      orderCookie: createOrderCookie(signingKey),
    } as unknown as Store);
    await createCode(database.db, codeTerms("TENOFF", { oncePerCustomer: false }));
    await createCode(database.db, codeTerms("LATER", { validFrom: new Date("2099-01-01T00:00:00Z") }));
    await createCode(database.db, codeTerms("GONE", { validUntil: new Date("2020-01-01T00:00:00Z") }));
    await createCode(database.db, codeTerms("ONCE"));
    await createCode(database.db, codeTerms("FRANCE", { countries: ["FR"] }));
    await createCode(database.db, codeTerms("BIG", { minimumMinor: { EUR: 20000 } }));
    await createCode(database.db, codeTerms("FIRST", { firstOrderOnly: true }));
    await createCode(database.db, codeTerms("SOONOFF", { oncePerCustomer: false }));
    await createCode(database.db, codeTerms("WHOLE", { reduction: { kind: "amount", amountMinor: { EUR: 8970 } } }));
    await createCode(database.db, codeTerms("HUNDREDOFF", { reduction: { kind: "amount", amountMinor: { EUR: 10000 } }, minimumMinor: { EUR: 5000 } }));
  });
  afterAll(() => installStore(undefined));

  it("applies a code: the page comes back with every field kept, the discount and the new total", async () => {
    const { status, data } = await send({ ...contact, code: " ten-off ", intent: "apply-code" });
    expect(status).toBe(200);
    expect(data?.codeError).toBeUndefined();
    expect(data?.values).toMatchObject({ ...contact, appliedCode: "TENOFF", code: "" });
    expect(data?.quote?.discount).toEqual({ code: "TENOFF", discountMinor: 897 });
    expect(data?.quote?.totals.totalMinor).toBe(8073);
  });

  it.each([
    ["NOPE", "Diesen Code kennen wir nicht"],
    ["LATER", "gilt noch nicht"],
    ["GONE", "abgelaufen"],
    ["FRANCE", "nicht in diesem Land"],
    ["BIG", "ab einem Bestellwert von 200,00 €"],
    // An amount code leaves something to pay: the smallest order it takes is its amount and a cent.
    ["WHOLE", "ab einem Bestellwert von 89,71 €"],
    ["HUNDREDOFF", "ab einem Bestellwert von 100,01 €"],
  ])("refuses %s, saying why in German, the total unchanged", async (code, reason) => {
    const { status, data } = await send({ ...contact, code, intent: "apply-code" });
    expect(status).toBe(400);
    expect(data?.codeError?.replace(/\s/g, " ")).toContain(reason);
    expect(data?.values).toMatchObject({ ...contact, appliedCode: "", code });
    expect(data?.quote?.totals.totalMinor).toBe(8970);
  });

  it("removes an applied code", async () => {
    const { data } = await send({ ...contact, appliedCode: "TENOFF", intent: "remove-code" });
    expect(data?.values.appliedCode).toBe("");
    expect(data?.quote?.discount).toBeNull();
  });

  it("pays with the code: the order's total is the discounted one", async () => {
    const email = "payer@example.com";
    const { status, location } = await send({ ...contact, ...card, email, appliedCode: "ONCE", quotedTotal: "8073" });
    expect(status).toBe(303);
    expect(location).toContain("/upsell");
    const [order] = await database.db.select().from(orders).where(eq(orders.email, email));
    expect(order).toMatchObject({ status: "paid", totalMinor: 8073 });
  });

  it("refuses a first-order code to a buyer who has paid before, and a once-per-customer code to one who has used it", async () => {
    const first = await send({ ...contact, email: "payer@example.com", code: "FIRST", intent: "apply-code" });
    expect(first.data?.codeError).toContain("nur für Ihre erste Bestellung");
    const once = await send({ ...contact, email: "Payer@Example.com", code: "ONCE", intent: "apply-code" });
    expect(once.data?.codeError).toContain("bereits eingelöst");
  });

  it("takes off a code that stopped being valid between applying and paying, shows the new total and charges nothing", async () => {
    const applied = await send({ ...contact, code: "SOONOFF", intent: "apply-code" });
    expect(applied.data?.quote?.totals.totalMinor).toBe(8073);
    const [row] = await database.db.select().from(discountCodes).where(eq(discountCodes.code, "SOONOFF"));
    await setCodeActive(database.db, row?.id ?? "", false);
    const email = "late@example.com";
    const { status, data } = await send({ ...contact, ...card, email, appliedCode: "SOONOFF", quotedTotal: "8073" });
    expect(status).toBe(409);
    expect(data?.message).toContain("gilt für diese Bestellung nicht mehr");
    expect(data?.values.appliedCode).toBe("");
    expect(data?.quote?.totals.totalMinor).toBe(8970);
    expect(await database.db.select().from(orders).where(eq(orders.email, email))).toEqual([]);
  });
});
