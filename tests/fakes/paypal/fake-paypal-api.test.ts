import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakePayPal, type FakePayPal } from "./fake-paypal-api";
import { listAt, textAt } from "../../../app/payments/paypal/json-fields";

/** The fake must refuse what PayPal refuses, or the provider's contract tests prove nothing. */

let fake: FakePayPal;
let bearer: string;

beforeEach(async () => {
  fake = await startFakePayPal();
  const answer = await fetch(`${fake.url}/v1/oauth2/token`, {
    method: "POST",
    headers: { Authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`, "Content-Type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
  bearer = textAt(await answer.json(), "access_token") ?? "";
});
afterEach(async () => {
  await fake.close();
});

const validOrder = () => ({
  intent: "CAPTURE",
  purchase_units: [{ reference_id: "VN-1", amount: { currency_code: "EUR", value: "89.70" } }],
  payment_source: { paypal: { experience_context: { return_url: "https://shop.example/r", cancel_url: "https://shop.example/r?cancelled=1", user_action: "PAY_NOW", shipping_preference: "NO_SHIPPING" } } },
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const answer = await fetch(`${fake.url}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json", "PayPal-Request-Id": crypto.randomUUID(), ...headers },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: await answer.json() };
}

const issues = (body: unknown) => listAt(body, "details").map((detail) => `${textAt(detail, "field")} ${textAt(detail, "issue")}`);

describe("fake PayPal API", () => {
  it("issues tokens for the right client credentials only", async () => {
    const wrong = await fetch(`${fake.url}/v1/oauth2/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${fake.clientId}:nope`).toString("base64")}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    expect(wrong.status).toBe(401);
    expect(bearer).not.toBe("");
  });

  it.each([["no token", {}], ["a token it never issued", { Authorization: "Bearer A21AAforged" }]])("answers 401 to %s", async (_, headers) => {
    expect((await post("/v2/checkout/orders", validOrder(), { Authorization: "", ...headers })).status).toBe(401);
    expect(fake.orderCount()).toBe(0);
  });

  it("creates an order for a valid request", async () => {
    const answer = await post("/v2/checkout/orders", validOrder());
    expect(answer.status).toBe(201);
    expect(textAt(answer.body, "status")).toBe("PAYER_ACTION_REQUIRED");
  });

  it.each<[string, (order: ReturnType<typeof validOrder>) => unknown, string]>([
    ["no intent", ({ intent: _, ...rest }) => rest, "/intent MISSING_REQUIRED_PARAMETER"],
    ["no purchase units", ({ purchase_units: _, ...rest }) => rest, "/purchase_units MISSING_REQUIRED_PARAMETER"],
    ["an unknown top-level field", (order) => ({ ...order, application_context: {} }), "/application_context UNKNOWN_FIELD"],
    ["a value with one decimal", (order) => ({ ...order, purchase_units: [{ amount: { currency_code: "EUR", value: "89.7" } }] }), "/purchase_units/@reference_id/amount/value DECIMAL_PRECISION"],
    ["a value as a number", (order) => ({ ...order, purchase_units: [{ amount: { currency_code: "EUR", value: 89.7 } }] }), "/purchase_units/@reference_id/amount/value DECIMAL_PRECISION"],
    ["a misspelt vault attribute", (order) => ({ ...order, payment_source: { paypal: { ...order.payment_source.paypal, attributes: { vault: { store_in_vault: "ON_SUCCESS", usage: "MERCHANT" } } } } }), "/payment_source/paypal/attributes/vault/usage UNKNOWN_FIELD"],
    ["a relative return URL", (order) => ({ ...order, payment_source: { paypal: { experience_context: { ...order.payment_source.paypal.experience_context, return_url: "/r" } } } }), "/payment_source/paypal/experience_context/return_url INVALID_PARAMETER_SYNTAX"],
    ["SET_PROVIDED_ADDRESS without an address", (order) => ({ ...order, payment_source: { paypal: { experience_context: { ...order.payment_source.paypal.experience_context, shipping_preference: "SET_PROVIDED_ADDRESS" } } } }), "/purchase_units/@reference_id/shipping MISSING_REQUIRED_PARAMETER"],
  ])("refuses an order with %s", async (_, change, issue) => {
    const answer = await post("/v2/checkout/orders", change(validOrder()));
    expect(answer.status).toBe(400);
    expect(issues(answer.body)).toContain(issue);
    expect(fake.orderCount()).toBe(0);
  });

  it("needs PayPal-Request-Id to create, and answers the first order again for the same id", async () => {
    const missing = await fetch(`${fake.url}/v2/checkout/orders`, { method: "POST", headers: { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" }, body: JSON.stringify(validOrder()) });
    expect(missing.status).toBe(400);
    const first = await post("/v2/checkout/orders", validOrder(), { "PayPal-Request-Id": "same" });
    const again = await post("/v2/checkout/orders", validOrder(), { "PayPal-Request-Id": "same" });
    expect(textAt(again.body, "id")).toBe(textAt(first.body, "id"));
    expect(fake.orderCount()).toBe(1);
  });

  it("captures only approved orders, once", async () => {
    const orderId = textAt((await post("/v2/checkout/orders", validOrder())).body, "id") ?? "";
    expect(issues((await post(`/v2/checkout/orders/${orderId}/capture`, {})).body)).toContain(" ORDER_NOT_APPROVED");
    fake.approve(orderId);
    expect((await post(`/v2/checkout/orders/${orderId}/capture`, {})).status).toBe(201);
    expect(issues((await post(`/v2/checkout/orders/${orderId}/capture`, {})).body)).toContain(" ORDER_ALREADY_CAPTURED");
  });

  it("knows only the kept accounts it made", async () => {
    const order = { ...validOrder(), payment_source: { paypal: { vault_id: "nosuchvault" } } };
    expect((await post("/v2/checkout/orders", order)).status).toBe(404);
    const known = await post("/v2/checkout/orders", { ...order, payment_source: { paypal: { vault_id: fake.vaultAccount() } } });
    expect(textAt(known.body, "status")).toBe("COMPLETED");
  });

  it("sends the buyer who approves on its page back to the return URL", async () => {
    const orderId = textAt((await post("/v2/checkout/orders", validOrder())).body, "id") ?? "";
    const page = await fetch(`${fake.url}/checkoutnow?token=${orderId}`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`https://shop.example/r?token=${orderId}&PayerID=FAKEPAYER01`);
    expect(textAt(fake.order(orderId), "status")).toBe("APPROVED");
  });

  it("checks webhook verification requests for every field", async () => {
    const complete = { auth_algo: "a", cert_url: "c", transmission_id: "i", transmission_sig: "s", transmission_time: "t", webhook_id: fake.webhookId, webhook_event: {} };
    expect((await post("/v1/notifications/verify-webhook-signature", complete)).body).toEqual({ verification_status: "SUCCESS" });
    const incomplete = Object.fromEntries(Object.entries(complete).filter(([field]) => field !== "transmission_sig"));
    expect((await post("/v1/notifications/verify-webhook-signature", incomplete)).status).toBe(400);
  });
});
