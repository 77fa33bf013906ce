import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * TEST SUPPORT ONLY: a local stand-in for the part of PayPal's REST API our provider uses
 * (OAuth token, Orders v2, captures, refunds, webhook verification). It holds the provider to the
 * contract: Basic auth for tokens and only its own tokens after that, the documented field names
 * (unknown or missing fields are a 400), amounts as decimal strings with the currency's decimals,
 * PayPal-Request-Id on every POST that creates, captures or refunds (the same id answers the first
 * response again and creates nothing). Tests play the buyer and PayPal's decisions through its
 * controls. Never import it from application code.
 */

export interface FakePayPalOptions {
  clientId?: string;
  clientSecret?: string;
  webhookId?: string;
  /** The `expires_in` of issued tokens, in seconds. */
  tokenLifetimeSeconds?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Readonly<Record<string, string>>;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  rawBody: string;
  /** The JSON body, or null when the body is empty or not JSON. */
  body: unknown;
}

/** How the capture of an approved order ends. INSTRUMENT_DECLINED is PayPal's 422 refusal. */
export type FakeCaptureOutcome = "COMPLETED" | "PENDING" | "DECLINED" | "INSTRUMENT_DECLINED";
/** How an order paid from a kept account ends; PAYER_ACTION_REQUIRED sends the buyer to PayPal after all. */
export type FakeVaultedOutcome = "COMPLETED" | "PENDING" | "DECLINED" | "PAYER_ACTION_REQUIRED";

export interface FakeFailure {
  /** Default 500. */
  status?: number;
  /** Only a request whose path contains this fails; default any request. */
  path?: string;
  /** Do the work first and then answer the failure, as when the answer is lost on the way back. */
  afterProcessing?: boolean;
}

export interface FakePayPal {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly webhookId: string;
  readonly requests: readonly RecordedRequest[];
  /** Recorded requests with this method whose path matches. */
  requestsTo(method: string, path: string | RegExp): RecordedRequest[];
  /** How many orders exist: a replayed PayPal-Request-Id must not add one. */
  orderCount(): number;
  /** The order as GET /v2/checkout/orders/:id answers it. */
  order(orderId: string): unknown;
  /** The order's capture as GET /v2/payments/captures/:id answers it. */
  captureOf(orderId: string): unknown;
  /** A refund as PayPal shows it in a PAYMENT.CAPTURE.REFUNDED event. */
  refund(refundId: string): unknown;
  /** The buyer approves on PayPal's page; the later capture ends as `capture`. */
  approve(orderId: string, capture?: FakeCaptureOutcome): void;
  /** PayPal voids the order (the buyer walked away, or PayPal gave up on it). */
  voidOrder(orderId: string): void;
  /** PayPal forgets the order, as it does when an unapproved one expires. */
  expireOrder(orderId: string): void;
  /** A kept PayPal account, as if vaulted on an earlier payment. */
  vaultAccount(): string;
  /** The next order paid from a kept account ends this way (then COMPLETED again). */
  setNextVaultedOutcome(outcome: FakeVaultedOutcome): void;
  /** The next refund answers PENDING instead of COMPLETED. */
  setNextRefundPending(): void;
  /** The next matching request answers an error. */
  failNext(failure?: FakeFailure): void;
  /** What the webhook verification answers (a webhook id other than ours always gets FAILURE). */
  setVerificationStatus(status: "SUCCESS" | "FAILURE"): void;
  /** Every issued token stops working, as if PayPal revoked them early. */
  revokeTokens(): void;
  close(): Promise<void>;
}

interface PendingFailure {
  status: number;
  path: string | undefined;
  afterProcessing: boolean;
}

interface Issue {
  field: string;
  issue: string;
  description: string;
}

interface Answer {
  status: number;
  body: unknown;
  /** For the buyer's page only. */
  location?: string;
}

type OrderStatus = "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED" | "VOIDED";
type CaptureStatus = "COMPLETED" | "PENDING" | "DECLINED" | "PARTIALLY_REFUNDED" | "REFUNDED";

interface FakeOrder {
  id: string;
  status: OrderStatus;
  referenceId: string | undefined;
  customId: string | undefined;
  currency: string;
  minor: number;
  returnUrl: string | null;
  cancelUrl: string | null;
  vaultRequested: boolean;
  vaultId: string | null;
  payerApproved: boolean;
  captureOutcome: FakeCaptureOutcome;
  captureId: string | null;
}

interface FakeCapture {
  id: string;
  orderId: string;
  currency: string;
  minor: number;
  status: CaptureStatus;
  refundedMinor: number;
}

interface FakeRefund {
  id: string;
  captureId: string;
  currency: string;
  minor: number;
  status: "COMPLETED" | "PENDING";
  totalRefundedMinor: number;
}

/** The fake's own decimals table, kept apart from the provider's so a mistake there shows up here. */
const decimalsByCurrency: Readonly<Record<string, number>> = { EUR: 2, GBP: 2, SEK: 2, DKK: 2, CHF: 2, NOK: 2, PLN: 2, USD: 2, JPY: 0, HUF: 0 };

function valueOf(minor: number, currency: string): string {
  const decimals = decimalsByCurrency[currency] ?? 2;
  if (decimals === 0) return String(minor);
  const digits = String(minor).padStart(decimals + 1, "0");
  return `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
function paypalId(length = 17): string {
  return Array.from(randomBytes(length), (byte) => idAlphabet[byte % idAlphabet.length]).join("");
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function errorBody(name: string, message: string, details: Issue[] = []) {
  return { name, message, debug_id: randomBytes(6).toString("hex"), ...(details.length ? { details } : {}), links: [] };
}

const invalidRequest = (details: Issue[]): Answer => ({ status: 400, body: errorBody("INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema.", details) });
const unprocessable = (issue: string, description: string, field = ""): Answer => ({
  status: 422,
  body: errorBody("UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation.", [{ field, issue, description }]),
});
const notFound = (): Answer => ({ status: 404, body: errorBody("RESOURCE_NOT_FOUND", "The specified resource does not exist.", [{ field: "", issue: "INVALID_RESOURCE_ID", description: "Specified resource ID does not exist." }]) });

/** A small schema checker: it collects every problem, as PayPal's 400 answers list them. */
class Checker {
  readonly issues: Issue[] = [];

  object(value: unknown, field: string, required: boolean): Record<string, unknown> | undefined {
    if (value === undefined) {
      if (required) this.add(field, "MISSING_REQUIRED_PARAMETER", "A required field is missing.");
      return undefined;
    }
    if (!isObject(value)) {
      this.add(field, "INVALID_PARAMETER_SYNTAX", "The value must be an object.");
      return undefined;
    }
    return value;
  }

  /** Unknown fields are an error: a misspelt field name would be silently ignored otherwise. */
  onlyKeys(value: Record<string, unknown>, field: string, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) this.add(field ? `${field}/${key}` : key, "UNKNOWN_FIELD", "The field is not part of the schema.");
  }

  text(value: Record<string, unknown>, key: string, field: string, required: boolean, allowed?: readonly string[]): string | undefined {
    const found = value[key];
    const path = `${field}/${key}`;
    if (found === undefined) {
      if (required) this.add(path, "MISSING_REQUIRED_PARAMETER", "A required field is missing.");
      return undefined;
    }
    if (typeof found !== "string" || found === "") {
      this.add(path, "INVALID_PARAMETER_SYNTAX", "The value must be a non-empty string.");
      return undefined;
    }
    if (allowed && !allowed.includes(found)) {
      this.add(path, "INVALID_PARAMETER_VALUE", `The value must be one of ${allowed.join(", ")}.`);
      return undefined;
    }
    return found;
  }

  absoluteUrl(value: Record<string, unknown>, key: string, field: string): string | undefined {
    const found = this.text(value, key, field, true);
    if (found === undefined) return undefined;
    if (!/^https?:\/\/[^/]+\//.test(found)) {
      this.add(`${field}/${key}`, "INVALID_PARAMETER_SYNTAX", "The value must be an absolute URL.");
      return undefined;
    }
    return found;
  }

  /** An amount object: a known currency and a decimal string with exactly that currency's decimals. */
  amount(value: unknown, field: string, required: boolean): { currency: string; minor: number } | undefined {
    const amount = this.object(value, field, required);
    if (!amount) return undefined;
    this.onlyKeys(amount, field, ["currency_code", "value"]);
    const currency = this.text(amount, "currency_code", field, true);
    const text = amount.value;
    if (text === undefined) this.add(`${field}/value`, "MISSING_REQUIRED_PARAMETER", "A required field is missing.");
    if (currency === undefined || text === undefined) return undefined;
    const decimals = decimalsByCurrency[currency];
    if (decimals === undefined) {
      this.add(`${field}/currency_code`, "CURRENCY_NOT_SUPPORTED", "Currency code is not supported.");
      return undefined;
    }
    const pattern = decimals === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${decimals}}$`);
    if (typeof text !== "string" || !pattern.test(text)) {
      this.add(`${field}/value`, "DECIMAL_PRECISION", `The value must be a decimal string with ${decimals} decimals for ${currency}.`);
      return undefined;
    }
    const minor = Number(text.replace(".", ""));
    if (minor <= 0) this.add(`${field}/value`, "CANNOT_BE_ZERO_OR_NEGATIVE", "The amount must be greater than zero.");
    return { currency, minor };
  }

  add(field: string, issue: string, description: string): void {
    this.issues.push({ field: field.startsWith("/") ? field : `/${field}`, issue, description });
  }
}

export async function startFakePayPal(options: FakePayPalOptions = {}): Promise<FakePayPal> {
  const clientId = options.clientId ?? "fake-client-id";
  const clientSecret = options.clientSecret ?? "fake-client-secret";
  const webhookId = options.webhookId ?? "WH-FAKE-0001";
  const tokenLifetime = options.tokenLifetimeSeconds ?? 32_400;

  const requests: RecordedRequest[] = [];
  const tokens = new Map<string, number>();
  const orders = new Map<string, FakeOrder>();
  const captures = new Map<string, FakeCapture>();
  const refunds = new Map<string, FakeRefund>();
  const vaults = new Set<string>();
  const replies = new Map<string, Answer>();
  const failures: PendingFailure[] = [];
  let nextVaultedOutcome: FakeVaultedOutcome = "COMPLETED";
  let nextRefundPending = false;
  let verificationStatus: "SUCCESS" | "FAILURE" = "SUCCESS";
  let baseUrl = "";

  function captureJson(capture: FakeCapture) {
    return {
      id: capture.id,
      status: capture.status,
      amount: { currency_code: capture.currency, value: valueOf(capture.minor, capture.currency) },
      final_capture: true,
      ...(capture.status === "PENDING" ? { status_details: { reason: "PENDING_REVIEW" } } : {}),
      supplementary_data: { related_ids: { order_id: capture.orderId } },
      links: [
        { href: `${baseUrl}/v2/payments/captures/${capture.id}`, rel: "self", method: "GET" },
        { href: `${baseUrl}/v2/payments/captures/${capture.id}/refund`, rel: "refund", method: "POST" },
        { href: `${baseUrl}/v2/checkout/orders/${capture.orderId}`, rel: "up", method: "GET" },
      ],
    };
  }

  function refundJson(refund: FakeRefund) {
    return {
      id: refund.id,
      status: refund.status,
      amount: { currency_code: refund.currency, value: valueOf(refund.minor, refund.currency) },
      seller_payable_breakdown: {
        gross_amount: { currency_code: refund.currency, value: valueOf(refund.minor, refund.currency) },
        total_refunded_amount: { currency_code: refund.currency, value: valueOf(refund.totalRefundedMinor, refund.currency) },
      },
      links: [
        { href: `${baseUrl}/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" },
        { href: `${baseUrl}/v2/payments/captures/${refund.captureId}`, rel: "up", method: "GET" },
      ],
    };
  }

  function orderJson(order: FakeOrder) {
    const capture = order.captureId ? captures.get(order.captureId) : undefined;
    const payer = { name: { given_name: "Fake", surname: "Buyer" }, email_address: "buyer@example.com", payer_id: "FAKEPAYER01" };
    const vault = order.vaultId ? { vault: { id: order.vaultId, status: "VAULTED", customer: { id: "FAKECUSTOMER" } } } : undefined;
    return {
      id: order.id,
      intent: "CAPTURE",
      status: order.status,
      payment_source: {
        paypal: {
          ...(order.payerApproved ? { email_address: payer.email_address, account_id: payer.payer_id, name: payer.name } : {}),
          ...(vault ? { attributes: vault } : {}),
        },
      },
      purchase_units: [
        {
          reference_id: order.referenceId ?? "default",
          ...(order.customId ? { custom_id: order.customId } : {}),
          amount: { currency_code: order.currency, value: valueOf(order.minor, order.currency) },
          ...(capture ? { payments: { captures: [captureJson(capture)] } } : {}),
        },
      ],
      ...(order.payerApproved ? { payer } : {}),
      links: [
        { href: `${baseUrl}/v2/checkout/orders/${order.id}`, rel: "self", method: "GET" },
        ...(order.status === "PAYER_ACTION_REQUIRED" ? [{ href: `${baseUrl}/checkoutnow?token=${order.id}`, rel: "payer-action", method: "GET" }] : []),
      ],
    };
  }

  function settleCapture(order: FakeOrder, outcome: "COMPLETED" | "PENDING" | "DECLINED"): void {
    const capture: FakeCapture = { id: paypalId(), orderId: order.id, currency: order.currency, minor: order.minor, status: outcome, refundedMinor: 0 };
    captures.set(capture.id, capture);
    order.captureId = capture.id;
    order.status = "COMPLETED";
    if (outcome === "COMPLETED" && order.vaultRequested && !order.vaultId) {
      order.vaultId = randomBytes(4).toString("hex");
      vaults.add(order.vaultId);
    }
  }

  // ---- endpoints ------------------------------------------------------------------------------

  function token(request: RecordedRequest): Answer {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    if (request.headers.authorization !== expected) return { status: 401, body: { error: "invalid_client", error_description: "Client Authentication failed" } };
    if (!request.headers["content-type"]?.startsWith("application/x-www-form-urlencoded") || new URLSearchParams(request.rawBody).get("grant_type") !== "client_credentials") {
      return { status: 400, body: { error: "unsupported_grant_type", error_description: "Grant Type is NULL" } };
    }
    const accessToken = `A21AA${randomBytes(24).toString("hex")}`;
    tokens.set(accessToken, Date.now() + tokenLifetime * 1000);
    return { status: 200, body: { scope: "https://uri.paypal.com/services/payments/payment", access_token: accessToken, token_type: "Bearer", app_id: "APP-FAKE", expires_in: tokenLifetime, nonce: randomBytes(8).toString("hex") } };
  }

  function createOrder(body: unknown): Answer {
    const check = new Checker();
    const root = check.object(body, "", true);
    if (!root) return invalidRequest(check.issues);
    check.onlyKeys(root, "", ["intent", "purchase_units", "payment_source"]);
    check.text(root, "intent", "", true, ["CAPTURE"]);
    const units = root.purchase_units;
    if (!Array.isArray(units) || units.length !== 1) {
      check.add("purchase_units", units === undefined ? "MISSING_REQUIRED_PARAMETER" : "INVALID_ARRAY_LENGTH", "This fake takes exactly one purchase unit.");
      return invalidRequest(check.issues);
    }
    const unit = check.object(units[0], "purchase_units/@reference_id", true);
    const field = "purchase_units/@reference_id";
    let amount: { currency: string; minor: number } | undefined;
    let hasShipping = false;
    if (unit) {
      check.onlyKeys(unit, field, ["reference_id", "custom_id", "invoice_id", "description", "soft_descriptor", "amount", "shipping"]);
      check.text(unit, "reference_id", field, false);
      check.text(unit, "custom_id", field, false);
      amount = check.amount(unit.amount, `${field}/amount`, true);
      hasShipping = checkShipping(check, unit.shipping, `${field}/shipping`);
    }
    const source = check.object(root.payment_source, "payment_source", true);
    const paypal = source ? check.object(source.paypal, "payment_source/paypal", true) : undefined;
    if (source) check.onlyKeys(source, "payment_source", ["paypal"]);
    if (!paypal || !unit || check.issues.length) return invalidRequest(check.issues);
    check.onlyKeys(paypal, "payment_source/paypal", ["experience_context", "attributes", "vault_id", "email_address"]);
    const vaultId = check.text(paypal, "vault_id", "payment_source/paypal", false);
    const context = checkExperience(check, paypal.experience_context, vaultId === undefined, hasShipping);
    const vaultRequested = checkVaultAttributes(check, paypal.attributes);
    if (vaultId !== undefined && vaultRequested) check.add("payment_source/paypal/attributes", "INCOMPATIBLE_PARAMETER_VALUE", "A kept account cannot be kept again.");
    if (check.issues.length || !amount) return invalidRequest(check.issues);
    if (vaultId !== undefined && !vaults.has(vaultId)) return notFound();

    const order: FakeOrder = {
      id: paypalId(),
      status: "PAYER_ACTION_REQUIRED",
      referenceId: typeof unit.reference_id === "string" ? unit.reference_id : undefined,
      customId: typeof unit.custom_id === "string" ? unit.custom_id : undefined,
      currency: amount.currency,
      minor: amount.minor,
      returnUrl: context?.returnUrl ?? null,
      cancelUrl: context?.cancelUrl ?? null,
      vaultRequested,
      vaultId: vaultId ?? null,
      payerApproved: vaultId !== undefined,
      captureOutcome: "COMPLETED",
      captureId: null,
    };
    orders.set(order.id, order);
    if (vaultId !== undefined) {
      const outcome = nextVaultedOutcome;
      nextVaultedOutcome = "COMPLETED";
      if (outcome === "PAYER_ACTION_REQUIRED") order.payerApproved = false;
      else settleCapture(order, outcome);
    }
    return { status: 201, body: orderJson(order) };
  }

  function checkShipping(check: Checker, value: unknown, field: string): boolean {
    const shipping = check.object(value, field, false);
    if (!shipping) return false;
    check.onlyKeys(shipping, field, ["type", "name", "address"]);
    check.text(shipping, "type", field, false, ["SHIPPING", "PICKUP_IN_PERSON"]);
    const name = check.object(shipping.name, `${field}/name`, true);
    if (name) {
      check.onlyKeys(name, `${field}/name`, ["full_name"]);
      check.text(name, "full_name", `${field}/name`, true);
    }
    const address = check.object(shipping.address, `${field}/address`, true);
    if (address) {
      check.onlyKeys(address, `${field}/address`, ["address_line_1", "address_line_2", "admin_area_1", "admin_area_2", "postal_code", "country_code"]);
      check.text(address, "address_line_1", `${field}/address`, true);
      check.text(address, "address_line_2", `${field}/address`, false);
      check.text(address, "admin_area_2", `${field}/address`, true);
      check.text(address, "postal_code", `${field}/address`, true);
      const country = check.text(address, "country_code", `${field}/address`, true);
      if (country !== undefined && !/^[A-Z]{2}$/.test(country)) check.add(`${field}/address/country_code`, "INVALID_PARAMETER_SYNTAX", "Two capital letters (ISO 3166-1).");
    }
    return true;
  }

  function checkExperience(check: Checker, value: unknown, required: boolean, hasShipping: boolean): { returnUrl: string; cancelUrl: string } | undefined {
    const field = "payment_source/paypal/experience_context";
    const context = check.object(value, field, required);
    if (!context) return undefined;
    check.onlyKeys(context, field, ["return_url", "cancel_url", "user_action", "shipping_preference", "brand_name", "locale", "landing_page"]);
    const returnUrl = check.absoluteUrl(context, "return_url", field);
    const cancelUrl = check.absoluteUrl(context, "cancel_url", field);
    check.text(context, "user_action", field, false, ["CONTINUE", "PAY_NOW"]);
    const preference = check.text(context, "shipping_preference", field, false, ["GET_FROM_FILE", "NO_SHIPPING", "SET_PROVIDED_ADDRESS"]);
    if (preference === "SET_PROVIDED_ADDRESS" && !hasShipping) check.add("purchase_units/@reference_id/shipping", "MISSING_REQUIRED_PARAMETER", "SET_PROVIDED_ADDRESS needs a shipping address.");
    return returnUrl && cancelUrl ? { returnUrl, cancelUrl } : undefined;
  }

  function checkVaultAttributes(check: Checker, value: unknown): boolean {
    const field = "payment_source/paypal/attributes";
    const attributes = check.object(value, field, false);
    if (!attributes) return false;
    check.onlyKeys(attributes, field, ["vault"]);
    const vault = check.object(attributes.vault, `${field}/vault`, true);
    if (!vault) return false;
    check.onlyKeys(vault, `${field}/vault`, ["store_in_vault", "usage_type", "customer_type", "permit_multiple_payment_tokens"]);
    check.text(vault, "store_in_vault", `${field}/vault`, true, ["ON_SUCCESS"]);
    check.text(vault, "usage_type", `${field}/vault`, true, ["MERCHANT", "PLATFORM"]);
    check.text(vault, "customer_type", `${field}/vault`, false, ["CONSUMER", "BUSINESS"]);
    return true;
  }

  function captureOrder(orderId: string, body: unknown): Answer {
    const order = orders.get(orderId);
    if (!order) return notFound();
    if (!isObject(body) || Object.keys(body).length > 0) return invalidRequest([{ field: "/", issue: "UNKNOWN_FIELD", description: "This fake captures with an empty JSON object only." }]);
    if (order.status === "COMPLETED") return unprocessable("ORDER_ALREADY_CAPTURED", "Order already captured.");
    if (order.status === "VOIDED") return unprocessable("ORDER_ALREADY_VOIDED", "Order has been voided.");
    if (order.status !== "APPROVED") return unprocessable("ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment.");
    if (order.captureOutcome === "INSTRUMENT_DECLINED") return unprocessable("INSTRUMENT_DECLINED", "The instrument presented was either declined by the processor or bank.");
    settleCapture(order, order.captureOutcome);
    return { status: 201, body: orderJson(order) };
  }

  function refundCapture(captureId: string, body: unknown): Answer {
    const capture = captures.get(captureId);
    if (!capture) return notFound();
    const check = new Checker();
    const root = check.object(body, "", true);
    if (!root) return invalidRequest(check.issues);
    check.onlyKeys(root, "", ["amount", "invoice_id", "note_to_payer", "custom_id"]);
    const amount = check.amount(root.amount, "amount", false);
    if (check.issues.length) return invalidRequest(check.issues);
    if (capture.status === "REFUNDED") return unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded.");
    if (capture.status !== "COMPLETED" && capture.status !== "PARTIALLY_REFUNDED") return unprocessable("REFUND_NOT_ALLOWED", "The capture cannot be refunded.");
    if (amount && amount.currency !== capture.currency) return unprocessable("REFUND_CURRENCY_MISMATCH", "Refund must be in the capture's currency.", "/amount/currency_code");
    const minor = amount?.minor ?? capture.minor - capture.refundedMinor;
    if (minor > capture.minor - capture.refundedMinor) return unprocessable("REFUND_AMOUNT_EXCEEDED", "The refund amount must be less than or equal to the capture amount that has not yet been refunded.");
    capture.refundedMinor += minor;
    capture.status = capture.refundedMinor === capture.minor ? "REFUNDED" : "PARTIALLY_REFUNDED";
    const refund: FakeRefund = { id: paypalId(), captureId, currency: capture.currency, minor, status: nextRefundPending ? "PENDING" : "COMPLETED", totalRefundedMinor: capture.refundedMinor };
    nextRefundPending = false;
    refunds.set(refund.id, refund);
    return { status: 201, body: refundJson(refund) };
  }

  function verifyWebhook(body: unknown): Answer {
    const check = new Checker();
    const root = check.object(body, "", true);
    if (!root) return invalidRequest(check.issues);
    const fields = ["auth_algo", "cert_url", "transmission_id", "transmission_sig", "transmission_time", "webhook_id"];
    check.onlyKeys(root, "", [...fields, "webhook_event"]);
    for (const name of fields) check.text(root, name, "", true);
    check.object(root.webhook_event, "webhook_event", true);
    if (check.issues.length) return invalidRequest(check.issues);
    return { status: 200, body: { verification_status: root.webhook_id === webhookId ? verificationStatus : "FAILURE" } };
  }

  /** The buyer's page at PayPal: approving sends the buyer back to the shop's return URL. */
  function buyerPage(orderId: string | undefined): Answer {
    const order = orderId ? orders.get(orderId) : undefined;
    if (!order || order.status !== "PAYER_ACTION_REQUIRED" || !order.returnUrl) return notFound();
    approve(order.id);
    const back = new URL(order.returnUrl);
    back.searchParams.set("token", order.id);
    back.searchParams.set("PayerID", "FAKEPAYER01");
    return { status: 302, body: {}, location: back.toString() };
  }

  function approve(orderId: string, capture: FakeCaptureOutcome = "COMPLETED"): void {
    const order = orders.get(orderId);
    if (!order || order.status !== "PAYER_ACTION_REQUIRED") throw new Error(`Fake PayPal: order ${orderId} is not waiting for the buyer`);
    order.status = "APPROVED";
    order.payerApproved = true;
    order.captureOutcome = capture;
  }

  // ---- routing --------------------------------------------------------------------------------

  function authorized(request: RecordedRequest): boolean {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1];
    const expiresAt = token ? tokens.get(token) : undefined;
    return expiresAt !== undefined && expiresAt > Date.now();
  }

  /** POSTs that create, capture or refund: keyed by PayPal-Request-Id, answered once. */
  const idempotentRoutes: readonly [RegExp, (match: RegExpExecArray, body: unknown) => Answer][] = [
    [/^\/v2\/checkout\/orders$/, (_match, body) => createOrder(body)],
    [/^\/v2\/checkout\/orders\/([^/]+)\/capture$/, (match, body) => captureOrder(match[1] ?? "", body)],
    [/^\/v2\/payments\/captures\/([^/]+)\/refund$/, (match, body) => refundCapture(match[1] ?? "", body)],
  ];

  function route(request: RecordedRequest): Answer {
    const { method, path } = request;
    if (method === "GET" && path === "/checkoutnow") return buyerPage(request.query.token);
    if (method === "POST" && path === "/v1/oauth2/token") return token(request);
    if (!authorized(request)) return { status: 401, body: errorBody("AUTHENTICATION_FAILURE", "Authentication failed due to invalid authentication credentials or a missing Authorization header.") };
    if (method === "POST" && !request.headers["content-type"]?.startsWith("application/json")) return { status: 415, body: errorBody("UNSUPPORTED_MEDIA_TYPE", "The server does not support the request payload's media type.") };
    if (method === "POST" && request.body === null) return invalidRequest([{ field: "/", issue: "MALFORMED_REQUEST_JSON", description: "The request JSON is not well formed." }]);

    if (method === "GET") {
      const order = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(path);
      if (order) {
        const found = orders.get(order[1] ?? "");
        return found ? { status: 200, body: orderJson(found) } : notFound();
      }
      const capture = /^\/v2\/payments\/captures\/([^/]+)$/.exec(path);
      if (capture) {
        const found = captures.get(capture[1] ?? "");
        return found ? { status: 200, body: captureJson(found) } : notFound();
      }
    }
    if (method === "POST" && path === "/v1/notifications/verify-webhook-signature") return verifyWebhook(request.body);
    for (const [pattern, handle] of idempotentRoutes) {
      const match = method === "POST" ? pattern.exec(path) : null;
      if (!match) continue;
      const requestId = request.headers["paypal-request-id"];
      if (!requestId) return invalidRequest([{ field: "/header/PayPal-Request-Id", issue: "MISSING_REQUIRED_PARAMETER", description: "PayPal-Request-Id is required here." }]);
      const key = `${path} ${requestId}`;
      const earlier = replies.get(key);
      if (earlier) return earlier;
      const answer = handle(match, request.body);
      // Malformed requests are not remembered: the same id with a corrected body may try again.
      if (answer.status !== 400) replies.set(key, answer);
      return answer;
    }
    return notFound();
  }

  async function readRequest(incoming: IncomingMessage): Promise<RecordedRequest> {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const url = new URL(incoming.url ?? "/", "http://fake");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers[name] = value;
    let body: unknown = null;
    if (rawBody !== "") {
      try {
        body = JSON.parse(rawBody) as unknown;
      } catch {
        body = null;
      }
    }
    return { method: incoming.method ?? "GET", path: url.pathname, query: Object.fromEntries(url.searchParams), headers, rawBody, body };
  }

  function takeFailure(path: string): PendingFailure | undefined {
    const index = failures.findIndex((failure) => failure.path === undefined || path.includes(failure.path));
    return index === -1 ? undefined : failures.splice(index, 1)[0];
  }

  function send(response: ServerResponse, answer: Answer): void {
    const headers: Record<string, string> = { "Content-Type": "application/json", "Paypal-Debug-Id": randomBytes(6).toString("hex") };
    if (answer.location) headers.Location = answer.location;
    response.writeHead(answer.status, headers).end(JSON.stringify(answer.body));
  }

  const server = createServer((incoming, response) => {
    readRequest(incoming)
      .then((request) => {
        requests.push(request);
        const failure = takeFailure(request.path);
        if (failure && !failure.afterProcessing) return send(response, { status: failure.status, body: errorBody("INTERNAL_SERVER_ERROR", "An internal server error has occurred.") });
        const answer = route(request);
        send(response, failure ? { status: failure.status, body: errorBody("INTERNAL_SERVER_ERROR", "An internal server error has occurred.") } : answer);
      })
      .catch((error: unknown) => {
        send(response, { status: 500, body: errorBody("INTERNAL_SERVER_ERROR", `Fake PayPal failed: ${error instanceof Error ? error.message : String(error)}`) });
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function mustOrder(orderId: string): FakeOrder {
    const order = orders.get(orderId);
    if (!order) throw new Error(`Fake PayPal: no order ${orderId}`);
    return order;
  }

  return {
    url: baseUrl,
    clientId,
    clientSecret,
    webhookId,
    requests,
    requestsTo: (method, path) => requests.filter((request) => request.method === method && (typeof path === "string" ? request.path === path : path.test(request.path))),
    orderCount: () => orders.size,
    order: (orderId) => orderJson(mustOrder(orderId)),
    captureOf(orderId) {
      const captureId = mustOrder(orderId).captureId;
      const capture = captureId ? captures.get(captureId) : undefined;
      if (!capture) throw new Error(`Fake PayPal: order ${orderId} has no capture`);
      return captureJson(capture);
    },
    refund(refundId) {
      const refund = refunds.get(refundId);
      if (!refund) throw new Error(`Fake PayPal: no refund ${refundId}`);
      return refundJson(refund);
    },
    approve,
    voidOrder: (orderId) => {
      mustOrder(orderId).status = "VOIDED";
    },
    expireOrder: (orderId) => {
      mustOrder(orderId);
      orders.delete(orderId);
    },
    vaultAccount() {
      const id = randomBytes(4).toString("hex");
      vaults.add(id);
      return id;
    },
    setNextVaultedOutcome: (outcome) => {
      nextVaultedOutcome = outcome;
    },
    setNextRefundPending: () => {
      nextRefundPending = true;
    },
    failNext: (failure = {}) => {
      failures.push({ status: failure.status ?? 500, afterProcessing: failure.afterProcessing ?? false, path: failure.path });
    },
    setVerificationStatus: (status) => {
      verificationStatus = status;
    },
    revokeTokens: () => tokens.clear(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
