import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
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

  // Schema violations are 400; amounts that break PayPal's rules are 422, as Orders v2 lists them.
  it.each<[string, (order: ReturnType<typeof validOrder>) => unknown, number, string]>([
    ["no intent", ({ intent: _, ...rest }) => rest, 400, "/intent MISSING_REQUIRED_PARAMETER"],
    ["no purchase units", ({ purchase_units: _, ...rest }) => rest, 400, "/purchase_units MISSING_REQUIRED_PARAMETER"],
    ["an unknown top-level field", (order) => ({ ...order, application_context: {} }), 400, "/application_context NOT_SUPPORTED"],
    ["a value with one decimal", (order) => ({ ...order, purchase_units: [{ amount: { currency_code: "EUR", value: "89.7" } }] }), 422, "/purchase_units/@reference_id/amount/value DECIMAL_PRECISION"],
    ["a zero value", (order) => ({ ...order, purchase_units: [{ amount: { currency_code: "EUR", value: "0.00" } }] }), 422, "/purchase_units/@reference_id/amount/value CANNOT_BE_ZERO_OR_NEGATIVE"],
    ["an unknown currency", (order) => ({ ...order, purchase_units: [{ amount: { currency_code: "XYZ", value: "1.00" } }] }), 422, "/purchase_units/@reference_id/amount/currency_code INVALID_CURRENCY_CODE"],
    ["a value as a number", (order) => ({ ...order, purchase_units: [{ amount: { currency_code: "EUR", value: 89.7 } }] }), 400, "/purchase_units/@reference_id/amount/value INVALID_PARAMETER_SYNTAX"],
    ["a misspelt vault attribute", (order) => ({ ...order, payment_source: { paypal: { ...order.payment_source.paypal, attributes: { vault: { store_in_vault: "ON_SUCCESS", usage: "MERCHANT" } } } } }), 400, "/payment_source/paypal/attributes/vault/usage NOT_SUPPORTED"],
    ["a relative return URL", (order) => ({ ...order, payment_source: { paypal: { experience_context: { ...order.payment_source.paypal.experience_context, return_url: "/r" } } } }), 400, "/payment_source/paypal/experience_context/return_url INVALID_PARAMETER_SYNTAX"],
    ["SET_PROVIDED_ADDRESS without an address", (order) => ({ ...order, payment_source: { paypal: { experience_context: { ...order.payment_source.paypal.experience_context, shipping_preference: "SET_PROVIDED_ADDRESS" } } } }), 400, "/purchase_units/@reference_id/shipping MISSING_REQUIRED_PARAMETER"],
  ])("refuses an order with %s", async (_, change, status, issue) => {
    const answer = await post("/v2/checkout/orders", change(validOrder()));
    expect(answer.status).toBe(status);
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

  it("knows only the kept accounts it made: an unknown one is 400, a revoked one 422, never 404", async () => {
    const order = { ...validOrder(), payment_source: { paypal: { vault_id: "nosuchvault" } } };
    const unknown = await post("/v2/checkout/orders", order);
    expect(unknown.status).toBe(400);
    expect(issues(unknown.body)).toEqual(["/payment_source/paypal/vault_id INVALID_PARAMETER_VALUE"]);
    const vaultId = fake.vaultAccount();
    const known = await post("/v2/checkout/orders", { ...order, payment_source: { paypal: { vault_id: vaultId } } });
    expect(textAt(known.body, "status")).toBe("COMPLETED");
    fake.revokeVault(vaultId);
    const revoked = await post("/v2/checkout/orders", { ...order, payment_source: { paypal: { vault_id: vaultId } } });
    expect(revoked.status).toBe(422);
    expect(issues(revoked.body)).toEqual(["/payment_source/paypal/vault_id PAYMENT_SOURCE_CANNOT_BE_USED"]);
  });

  it.each([
    ["missing", undefined, 400],
    ["of 108 characters", "x".repeat(108), 201],
    ["of 109 characters", "x".repeat(109), 400],
  ])("answers a PayPal-Request-Id %s with %i", async (_, requestId, status) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${bearer}`, "Content-Type": "application/json" };
    if (requestId !== undefined) headers["PayPal-Request-Id"] = requestId;
    const answer = await fetch(`${fake.url}/v2/checkout/orders`, { method: "POST", headers, body: JSON.stringify(validOrder()) });
    expect(answer.status).toBe(status);
  });

  it.each(["PAYER_ACTION_REQUIRED", "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING"] as const)("answers a capture %s with 422 and the buyer's page, and captures after the buyer acts again", async (issue) => {
    const orderId = textAt((await post("/v2/checkout/orders", validOrder())).body, "id") ?? "";
    fake.approve(orderId, issue);
    const refused = await post(`/v2/checkout/orders/${orderId}/capture`, {}, { "PayPal-Request-Id": "capture-1" });
    expect(refused.status).toBe(422);
    expect(issues(refused.body)).toEqual([` ${issue}`]);
    expect(listAt(refused.body, "links").map((link) => textAt(link, "rel"))).toContain("payer-action");
    expect(textAt(fake.order(orderId), "status")).toBe("PAYER_ACTION_REQUIRED");
    fake.approve(orderId);
    // The same id answers the first refusal again; a new request captures.
    expect((await post(`/v2/checkout/orders/${orderId}/capture`, {}, { "PayPal-Request-Id": "capture-1" })).status).toBe(422);
    expect((await post(`/v2/checkout/orders/${orderId}/capture`, {}, { "PayPal-Request-Id": "capture-2" })).status).toBe(201);
  });

  it("delivers a webhook event to the store with PayPal's transmission headers", async () => {
    const orderId = textAt((await post("/v2/checkout/orders", validOrder())).body, "id") ?? "";
    fake.approve(orderId);
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const store = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => {
        received.push({ headers: request.headers, body });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => store.listen(0, "127.0.0.1", resolve));
    try {
      const answer = await fake.deliverWebhook(`http://127.0.0.1:${(store.address() as AddressInfo).port}/webhooks/paypal`, "CHECKOUT.PAYMENT-APPROVAL.REVERSED", orderId);
      expect(answer.status).toBe(200);
    } finally {
      await new Promise((resolve) => store.close(resolve));
    }
    const [delivery] = received;
    expect(delivery?.headers["paypal-transmission-sig"]).toBeTruthy();
    expect(JSON.parse(delivery?.body ?? "{}")).toMatchObject({ event_type: "CHECKOUT.PAYMENT-APPROVAL.REVERSED", resource: { order_id: orderId } });
    expect(textAt(fake.order(orderId), "status")).toBe("VOIDED");
  });

  it("lists the webhooks it was given", async () => {
    await fake.close();
    fake = await startFakePayPal({ webhooks: [{ url: "https://shop.example/webhooks/paypal", event_types: [{ name: "PAYMENT.CAPTURE.COMPLETED" }] }] });
    const token = await fetch(`${fake.url}/v1/oauth2/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`, "Content-Type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    const answer = await fetch(`${fake.url}/v1/notifications/webhooks`, { headers: { Authorization: `Bearer ${textAt(await token.json(), "access_token")}` } });
    expect(await answer.json()).toMatchObject({ webhooks: [{ id: fake.webhookId, url: "https://shop.example/webhooks/paypal", event_types: [{ name: "PAYMENT.CAPTURE.COMPLETED" }] }] });
  });

  it("sends the buyer who approves on its page back to the return URL", async () => {
    const orderId = textAt((await post("/v2/checkout/orders", validOrder())).body, "id") ?? "";
    const page = await fetch(`${fake.url}/checkoutnow?token=${orderId}`, { redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe(`https://shop.example/r?token=${orderId}&PayerID=FAKEBUYER2345`);
    expect(textAt(fake.order(orderId), "status")).toBe("APPROVED");
  });

  it("checks webhook verification requests for every field", async () => {
    const complete = { auth_algo: "a", cert_url: "c", transmission_id: "i", transmission_sig: "s", transmission_time: "t", webhook_id: fake.webhookId, webhook_event: {} };
    expect((await post("/v1/notifications/verify-webhook-signature", complete)).body).toEqual({ verification_status: "SUCCESS" });
    const incomplete = Object.fromEntries(Object.entries(complete).filter(([field]) => field !== "transmission_sig"));
    expect((await post("/v1/notifications/verify-webhook-signature", incomplete)).status).toBe(400);
  });
});
