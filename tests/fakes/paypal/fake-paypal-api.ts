import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
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
 *
 * Its answers follow PayPal's OpenAPI documents checked in under `./openapi/` (see the README
 * there): error names, issues and their exact descriptions come from those documents, and
 * `openapi-conformance.test.ts` validates every exchange against them. What no schema says is
 * taken from the documentation page named beside it.
 */

export interface FakePayPalOptions {
  clientId?: string;
  clientSecret?: string;
  webhookId?: string;
  /** The `expires_in` of issued tokens, in seconds. */
  tokenLifetimeSeconds?: number;
  /**
   * The webhooks registered on the account, as `GET /v1/notifications/webhooks` lists them
   * (default none). The first without an id gets `webhookId`.
   */
  webhooks?: readonly FakeWebhook[];
}

export interface FakeWebhook {
  id?: string;
  url: string;
  event_types: readonly { name: string }[];
}

/** One request and the fake's answer to it, for the conformance test. */
export interface RecordedExchange {
  request: RecordedRequest;
  status: number;
  body: unknown;
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

/**
 * How the capture of an approved order ends. INSTRUMENT_DECLINED is PayPal's 422 refusal;
 * PAYER_ACTION_REQUIRED and REDIRECT_PAYER_FOR_ALTERNATE_FUNDING are 422 answers that send the
 * buyer back to PayPal (the order waits for the buyer again, with its payer-action link).
 */
export type FakeCaptureOutcome = "COMPLETED" | "PENDING" | "DECLINED" | "INSTRUMENT_DECLINED" | PayerActionIssue;
type PayerActionIssue = "PAYER_ACTION_REQUIRED" | "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING";
/** Every status of Orders v2's `order_status` schema. */
export type FakeOrderStatus = "CREATED" | "SAVED" | "APPROVED" | "VOIDED" | "COMPLETED" | "PAYER_ACTION_REQUIRED";
/** Create-order refusals of a kept account that Orders v2 documents under its 422 answer. */
export type FakeVaultRefusal = "PAYMENT_SOURCE_CANNOT_BE_USED" | "AGREEMENT_ALREADY_CANCELLED" | "PAYER_ACCOUNT_LOCKED_OR_CLOSED" | "TOKEN_EXPIRED";
/** Webhook events the fake writes for tests to deliver to the store. */
export type FakeEventType =
  | "PAYMENT.CAPTURE.COMPLETED"
  | "PAYMENT.CAPTURE.PENDING"
  | "PAYMENT.CAPTURE.DENIED"
  | "PAYMENT.CAPTURE.REVERSED"
  | "PAYMENT.CAPTURE.REFUNDED"
  | "CUSTOMER.DISPUTE.CREATED"
  | "CUSTOMER.DISPUTE.RESOLVED"
  | "CHECKOUT.ORDER.APPROVED"
  | "CHECKOUT.PAYMENT-APPROVAL.REVERSED";
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
  /** Every request with the answer it got, in order. */
  readonly exchanges: readonly RecordedExchange[];
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
  /** The next approval on PayPal's buyer page (the browser tests' buyer) leads to this capture. */
  setNextCaptureOutcome(outcome: FakeCaptureOutcome): void;
  /** The buyer approves on PayPal's page; the later capture ends as `capture`. */
  approve(orderId: string, capture?: FakeCaptureOutcome): void;
  /** PayPal voids the order (the buyer walked away, or PayPal gave up on it). */
  voidOrder(orderId: string): void;
  /** PayPal forgets the order, as it does when an unapproved one expires. */
  expireOrder(orderId: string): void;
  /** A kept PayPal account, as if vaulted on an earlier payment. */
  vaultAccount(): string;
  /** The buyer or PayPal revoked the kept account: paying with it is refused with this 422 issue. */
  revokeVault(vaultId: string, issue?: FakeVaultRefusal): void;
  /** Puts an order into any documented status (SAVED, CREATED, ...), as PayPal may report it. */
  setOrderStatus(orderId: string, status: FakeOrderStatus): void;
  /**
   * A webhook event about the order, as PayPal would deliver it (JSON text). The reversals also
   * change the fake's state: PAYMENT.CAPTURE.REVERSED gives the rest of the capture back,
   * CHECKOUT.PAYMENT-APPROVAL.REVERSED voids the approved order.
   */
  webhookEvent(eventType: FakeEventType, orderId: string): string;
  /**
   * Sends `webhookEvent` to the store's webhook URL as PayPal does: POSTed with PayPal's
   * transmission headers, which this fake's verification then accepts. Answers the store's response.
   */
  deliverWebhook(url: string, eventType: FakeEventType, orderId: string): Promise<Response>;
  /** The next order paid from a kept account ends this way (then COMPLETED again). */
  setNextVaultedOutcome(outcome: FakeVaultedOutcome): void;
  /** The next refund answers PENDING instead of COMPLETED. */
  setNextRefundPending(): void;
  /**
   * A PENDING refund ends: COMPLETED, or FAILED / CANCELLED, which give its amount back to what the
   * capture may still refund. PayPal announces a completion with PAYMENT.CAPTURE.REFUNDED and a
   * failure with no event: only GET /v2/payments/refunds/{id} shows it.
   */
  settleRefund(refundId: string, status: "COMPLETED" | "FAILED" | "CANCELLED"): void;
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
  location: string;
  issue: string;
  description: string;
}

interface Answer {
  status: number;
  body: unknown;
  /** For the buyer's page only. */
  location?: string;
}

type CaptureStatus = "COMPLETED" | "PENDING" | "DECLINED" | "PARTIALLY_REFUNDED" | "REFUNDED";

interface FakeOrder {
  id: string;
  status: FakeOrderStatus;
  createTime: string;
  /** Changes with every status change, as PayPal's `update_time` does. */
  updateTime: string;
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
  /** The capture was refused INSTRUMENT_DECLINED: the buyer may choose another funding source on PayPal's page. */
  fundingDeclined: boolean;
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
  status: "COMPLETED" | "PENDING" | "FAILED" | "CANCELLED";
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

/** PayPal's documents, read once: the fake quotes its error descriptions from them. */
type OpenApiDocument = "checkout_orders_v2" | "payments_payment_v2";
const documents = new Map<OpenApiDocument, unknown>();
function documentOf(name: OpenApiDocument): unknown {
  let document = documents.get(name);
  if (document === undefined) {
    document = JSON.parse(readFileSync(new URL(`./openapi/${name}.json`, import.meta.url), "utf8")) as unknown;
    documents.set(name, document);
  }
  return document;
}

function walk(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
}

function resolved(document: unknown, value: unknown): unknown {
  const ref = walk(value, "$ref");
  return typeof ref === "string" ? walk(document, ...ref.replace(/^#\//, "").split("/")) : value;
}

/** An operation of one of the documents, whose error answers the fake gives. */
interface Endpoint {
  document: OpenApiDocument;
  /** The path as the document writes it: `/v2/checkout/orders/{id}/capture`. */
  path: string;
  method: "get" | "post";
}

const endpoints = {
  createOrder: { document: "checkout_orders_v2", path: "/v2/checkout/orders", method: "post" },
  getOrder: { document: "checkout_orders_v2", path: "/v2/checkout/orders/{id}", method: "get" },
  capture: { document: "checkout_orders_v2", path: "/v2/checkout/orders/{id}/capture", method: "post" },
  getCapture: { document: "payments_payment_v2", path: "/v2/payments/captures/{capture_id}", method: "get" },
  refund: { document: "payments_payment_v2", path: "/v2/payments/captures/{capture_id}/refund", method: "post" },
  getRefund: { document: "payments_payment_v2", path: "/v2/payments/refunds/{refund_id}", method: "get" },
} as const satisfies Record<string, Endpoint>;

/**
 * The description the document gives for an issue of one answer (Orders v2 lists each issue with
 * its exact description, per operation and status). An issue the document does not list for that
 * answer is the fake's own mistake: it throws, and the request is answered 500.
 */
function documentedDescription(endpoint: Endpoint, status: number, issue: string): string {
  const document = documentOf(endpoint.document);
  const response = resolved(document, walk(document, "paths", endpoint.path, endpoint.method, "responses", String(status)));
  const schema = walk(response, "content", "application/json", "schema");
  const parts = [schema, ...((walk(schema, "allOf") as unknown[] | undefined) ?? [])].map((part) => resolved(document, part));
  for (const part of parts) {
    const variants = (walk(part, "properties", "details", "items", "anyOf") as unknown[] | undefined) ?? [];
    const variant = variants.find((candidate) => walk(candidate, "title") === issue);
    const description = (walk(variant, "properties", "description", "enum") as unknown[] | undefined)?.[0];
    if (typeof description === "string") return description;
  }
  throw new Error(`Fake PayPal: ${endpoint.method.toUpperCase()} ${endpoint.path} documents no ${status} issue ${issue}`);
}

/** Each error status's name and message, as the documents' `error_4xx` schemas fix them. */
const errorNames: Readonly<Record<number, readonly [string, string]>> = {
  400: ["INVALID_REQUEST", "Request is not well-formed, syntactically incorrect, or violates schema."],
  401: ["AUTHENTICATION_FAILURE", "Authentication failed due to missing authorization header, or invalid authentication credentials."],
  404: ["RESOURCE_NOT_FOUND", "The specified resource does not exist."],
  415: ["UNSUPPORTED_MEDIA_TYPE", "The server does not support the request payload's media type."],
  422: ["UNPROCESSABLE_ENTITY", "The requested action could not be performed, semantically incorrect, or failed business validation."],
  500: ["INTERNAL_SERVER_ERROR", "An internal server error occurred."],
};

interface Link {
  href: string;
  rel: string;
  method: "GET" | "POST";
}

function errorBody(status: number, details: Issue[] = [], links: Link[] = []) {
  const [name, message] = errorNames[status] ?? errorNames[500] ?? ["INTERNAL_SERVER_ERROR", ""];
  return { name, message, debug_id: randomBytes(6).toString("hex"), ...(details.length ? { details } : {}), links };
}

/** An error answer whose issues carry the document's own descriptions. */
function refusal(endpoint: Endpoint, status: 400 | 404 | 422, issues: readonly Problem[], links: Link[] = []): Answer {
  const details = issues.map(({ field, issue, location }) => ({ field, location, issue, description: documentedDescription(endpoint, status, issue) }));
  return { status, body: errorBody(status, details, links) };
}

const notFound = (endpoint: Endpoint): Answer => refusal(endpoint, 404, [{ field: "", issue: "INVALID_RESOURCE_ID", location: "path" }]);

/** A problem with a request: 400 when it breaks the schema, 422 when it fails PayPal's business rules. */
interface Problem {
  field: string;
  issue: string;
  location: "body" | "header" | "path";
}

/**
 * A small schema checker: it collects every problem, as PayPal's answers list them. Amounts that
 * are well-formed but not payable (too many decimals, zero, an unknown currency) are business
 * rules, answered 422 as Orders v2 and Payments v2 list them under their 422 answers.
 */
class Checker {
  readonly issues: Problem[] = [];
  readonly business: Problem[] = [];

  /** `unknownField`: the issue this endpoint documents for a field it does not take. */
  constructor(private readonly unknownField: string) {}

  object(value: unknown, field: string, required: boolean): Record<string, unknown> | undefined {
    if (value === undefined) {
      if (required) this.add(field, "MISSING_REQUIRED_PARAMETER");
      return undefined;
    }
    if (!isObject(value)) {
      this.add(field, "INVALID_PARAMETER_SYNTAX");
      return undefined;
    }
    return value;
  }

  /** Unknown fields are an error: a misspelt field name would be silently ignored otherwise. */
  onlyKeys(value: Record<string, unknown>, field: string, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) this.add(field ? `${field}/${key}` : key, this.unknownField);
  }

  text(value: Record<string, unknown>, key: string, field: string, required: boolean, allowed?: readonly string[]): string | undefined {
    const found = value[key];
    const path = `${field}/${key}`;
    if (found === undefined) {
      if (required) this.add(path, "MISSING_REQUIRED_PARAMETER");
      return undefined;
    }
    if (typeof found !== "string" || found === "") {
      this.add(path, "INVALID_PARAMETER_SYNTAX");
      return undefined;
    }
    if (allowed && !allowed.includes(found)) {
      this.add(path, "INVALID_PARAMETER_VALUE");
      return undefined;
    }
    return found;
  }

  absoluteUrl(value: Record<string, unknown>, key: string, field: string): string | undefined {
    const found = this.text(value, key, field, true);
    if (found === undefined) return undefined;
    if (!/^https?:\/\/[^/]+\//.test(found)) {
      this.add(`${field}/${key}`, "INVALID_PARAMETER_SYNTAX");
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
    if (text === undefined) this.add(`${field}/value`, "MISSING_REQUIRED_PARAMETER");
    else if (typeof text !== "string" || !/^\d+(\.\d+)?$/.test(text)) this.add(`${field}/value`, "INVALID_PARAMETER_SYNTAX");
    if (currency === undefined || typeof text !== "string") return undefined;
    const decimals = decimalsByCurrency[currency];
    if (decimals === undefined) {
      this.refuse(`${field}/currency_code`, "INVALID_CURRENCY_CODE");
      return undefined;
    }
    const pattern = decimals === 0 ? /^\d+$/ : new RegExp(`^\\d+\\.\\d{${decimals}}$`);
    if (!pattern.test(text)) {
      this.refuse(`${field}/value`, "DECIMAL_PRECISION");
      return undefined;
    }
    const minor = Number(text.replace(".", ""));
    if (minor <= 0) this.refuse(`${field}/value`, "CANNOT_BE_ZERO_OR_NEGATIVE");
    return { currency, minor };
  }

  add(field: string, issue: string): void {
    this.issues.push({ field: field.startsWith("/") ? field : `/${field}`, issue, location: "body" });
  }

  /** A business rule the request breaks: 422. */
  refuse(field: string, issue: string): void {
    this.business.push({ field: field.startsWith("/") ? field : `/${field}`, issue, location: "body" });
  }

  /** The answer for what was found: 400 for schema problems first, then 422; none when all is well. */
  answer(endpoint: Endpoint): Answer | undefined {
    if (this.issues.length) return refusal(endpoint, 400, this.issues);
    if (this.business.length) return refusal(endpoint, 422, this.business);
    return undefined;
  }
}

export async function startFakePayPal(options: FakePayPalOptions = {}): Promise<FakePayPal> {
  const clientId = options.clientId ?? "fake-client-id";
  const clientSecret = options.clientSecret ?? "fake-client-secret";
  const webhookId = options.webhookId ?? "FAKEWEBHOOK0001";
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
  let nextCaptureOutcome: FakeCaptureOutcome = "COMPLETED";
  let lastStamp = 0;
  const revokedVaults = new Map<string, FakeVaultRefusal>();
  const exchanges: RecordedExchange[] = [];
  const webhooks = (options.webhooks ?? []).map((webhook, index) => ({ ...webhook, id: webhook.id ?? (index === 0 ? webhookId : paypalId(17)) }));
  let nextRefundPending = false;
  /** The open or resolved dispute of each capture, by capture id. */
  const disputeIds = new Map<string, string>();
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
    const payer = { name: { given_name: "Fake", surname: "Buyer" }, email_address: "buyer@example.com", payer_id: "FAKEBUYER2345" };
    const vault = order.vaultId ? { vault: { id: order.vaultId, status: "VAULTED", customer: { id: "FAKECUSTOMER" } } } : undefined;
    return {
      id: order.id,
      intent: "CAPTURE",
      status: order.status,
      create_time: order.createTime,
      update_time: order.updateTime,
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
        // Orders v2 names the buyer's page "approve" for an order without a payment source
        // (CREATED) and "payer-action" once one is given (https://developer.paypal.com/docs/api/orders/v2/#orders_create).
        ...(order.status === "PAYER_ACTION_REQUIRED" ? [buyerLink(order, "payer-action")] : []),
        ...(order.status === "CREATED" ? [buyerLink(order, "approve")] : []),
      ],
    };
  }

  /** PayPal's times have whole seconds: each stamp is at least a second after the last, so a change always shows. */
  function stamp(): string {
    lastStamp = Math.max(Math.floor(Date.now() / 1000), lastStamp + 1);
    return new Date(lastStamp * 1000).toISOString().replace(".000Z", "Z");
  }

  function setStatus(order: FakeOrder, status: FakeOrderStatus): void {
    order.status = status;
    order.updateTime = stamp();
  }

  function buyerLink(order: FakeOrder, rel: "payer-action" | "approve"): Link {
    return { href: `${baseUrl}/checkoutnow?token=${order.id}`, rel, method: "GET" };
  }

  function settleCapture(order: FakeOrder, outcome: "COMPLETED" | "PENDING" | "DECLINED"): void {
    const capture: FakeCapture = { id: paypalId(), orderId: order.id, currency: order.currency, minor: order.minor, status: outcome, refundedMinor: 0 };
    captures.set(capture.id, capture);
    order.captureId = capture.id;
    setStatus(order, "COMPLETED");
    if (outcome === "COMPLETED") keepVault(order);
  }

  /** PayPal vaults the account once the payment succeeds (store_in_vault ON_SUCCESS). */
  function keepVault(order: FakeOrder): void {
    if (!order.vaultRequested || order.vaultId) return;
    order.vaultId = randomBytes(4).toString("hex");
    vaults.add(order.vaultId);
  }

  // ---- endpoints ------------------------------------------------------------------------------

  /**
   * `POST /v1/oauth2/token`: in none of PayPal's OpenAPI documents, so it follows its page
   * https://developer.paypal.com/api/rest/authentication/ (Basic auth with the client id and
   * secret, form body `grant_type=client_credentials`, `access_token` and `expires_in` back).
   */
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
    const check = new Checker("NOT_SUPPORTED");
    const root = check.object(body, "", true);
    if (!root) return check.answer(endpoints.createOrder) as Answer;
    check.onlyKeys(root, "", ["intent", "purchase_units", "payment_source"]);
    check.text(root, "intent", "", true, ["CAPTURE"]);
    const units = root.purchase_units;
    if (!Array.isArray(units) || units.length !== 1) {
      const issue = units === undefined ? "MISSING_REQUIRED_PARAMETER" : Array.isArray(units) && units.length > 1 ? "INVALID_ARRAY_MAX_ITEMS" : "INVALID_PARAMETER_SYNTAX";
      check.add("purchase_units", issue);
      return check.answer(endpoints.createOrder) as Answer;
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
    if (!paypal || !unit || check.issues.length) return check.answer(endpoints.createOrder) ?? refusal(endpoints.createOrder, 400, [{ field: "/payment_source", issue: "MISSING_REQUIRED_PARAMETER", location: "body" }]);
    check.onlyKeys(paypal, "payment_source/paypal", ["experience_context", "attributes", "vault_id", "email_address"]);
    const vaultId = check.text(paypal, "vault_id", "payment_source/paypal", false);
    const context = checkExperience(check, paypal.experience_context, vaultId === undefined, hasShipping);
    const vaultRequested = checkVaultAttributes(check, paypal.attributes);
    if (vaultId !== undefined && vaultRequested) check.refuse("payment_source/paypal/attributes", "INCOMPATIBLE_PARAMETER_VALUE");
    const refused = check.answer(endpoints.createOrder);
    if (refused || !amount) return refused ?? refusal(endpoints.createOrder, 400, [{ field: "/purchase_units/@reference_id/amount", issue: "MISSING_REQUIRED_PARAMETER", location: "body" }]);
    if (vaultId !== undefined) {
      // Orders v2 never answers a kept account with 404: an id it does not know is an invalid
      // parameter (400), one the buyer or PayPal has revoked a 422 business refusal
      // (https://developer.paypal.com/docs/api/orders/v2/#orders_create, "Response" 400 and 422).
      const revoked = revokedVaults.get(vaultId);
      if (revoked) return refusal(endpoints.createOrder, 422, [{ field: "/payment_source/paypal/vault_id", issue: revoked, location: "body" }]);
      if (!vaults.has(vaultId)) return refusal(endpoints.createOrder, 400, [{ field: "/payment_source/paypal/vault_id", issue: "INVALID_PARAMETER_VALUE", location: "body" }]);
    }

    const order: FakeOrder = {
      id: paypalId(),
      status: "PAYER_ACTION_REQUIRED",
      createTime: stamp(),
      updateTime: stamp(),
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
      fundingDeclined: false,
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
      if (country !== undefined && !/^[A-Z]{2}$/.test(country)) check.add(`${field}/address/country_code`, "INVALID_COUNTRY_CODE");
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
    if (preference === "SET_PROVIDED_ADDRESS" && !hasShipping) check.add("purchase_units/@reference_id/shipping", "MISSING_REQUIRED_PARAMETER");
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
    const endpoint = endpoints.capture;
    if (!order) return notFound(endpoint);
    if (!isObject(body) || Object.keys(body).length > 0) return refusal(endpoint, 400, [{ field: "/", issue: "INVALID_PARAMETER_VALUE", location: "body" }]);
    const refuse = (issue: string, links: Link[] = []) => refusal(endpoint, 422, [{ field: "", issue, location: "body" }], links);
    if (order.status === "COMPLETED") return refuse("ORDER_ALREADY_CAPTURED");
    if (order.status !== "APPROVED" && order.status !== "SAVED") return refuse("ORDER_NOT_APPROVED");
    if (order.captureOutcome === "INSTRUMENT_DECLINED") {
      // The answer links PayPal's page where the buyer chooses another funding source ("restart the
      // payment", https://developer.paypal.com/docs/checkout/standard/customize/handle-funding-failures/);
      // the order stays approved, and is captured once the buyer has chosen again.
      order.fundingDeclined = true;
      return refuse("INSTRUMENT_DECLINED", [
        { href: "https://developer.paypal.com/docs/api/orders/v2/#error-INSTRUMENT_DECLINED", rel: "information_link", method: "GET" },
        { href: `${baseUrl}/checkoutnow?token=${order.id}`, rel: "redirect", method: "GET" },
      ]);
    }
    if (order.captureOutcome === "PAYER_ACTION_REQUIRED" || order.captureOutcome === "REDIRECT_PAYER_FOR_ALTERNATE_FUNDING") {
      // The buyer must go back to PayPal ("instruct the buyer to return to PayPal"; for a failed
      // funding source, "redirect the payer to select another funding source":
      // https://developer.paypal.com/docs/checkout/standard/customize/handle-funding-failures/).
      // The order waits for the buyer again, and the answer carries the page to send them to.
      const issue = order.captureOutcome;
      setStatus(order, "PAYER_ACTION_REQUIRED");
      order.captureOutcome = "COMPLETED";
      return refuse(issue, [buyerLink(order, "payer-action")]);
    }
    settleCapture(order, order.captureOutcome);
    return { status: 201, body: orderJson(order) };
  }

  function refundCapture(captureId: string, body: unknown): Answer {
    const capture = captures.get(captureId);
    const endpoint = endpoints.refund;
    if (!capture) return notFound(endpoint);
    const check = new Checker("INVALID_PARAMETER_SYNTAX");
    const root = check.object(body, "", true);
    if (root) {
      check.onlyKeys(root, "", ["amount", "invoice_id", "note_to_payer", "custom_id"]);
    }
    const amount = root ? check.amount(root.amount, "amount", false) : undefined;
    const refused = check.answer(endpoint);
    if (refused) return refused;
    const refuse = (issue: string, field = "") => refusal(endpoint, 422, [{ field, issue, location: "body" }]);
    if (capture.status === "REFUNDED") return refuse("CAPTURE_FULLY_REFUNDED");
    if (capture.status === "PENDING") return refuse("PENDING_CAPTURE");
    if (capture.status !== "COMPLETED" && capture.status !== "PARTIALLY_REFUNDED") return refuse("REFUND_NOT_ALLOWED");
    if (amount && amount.currency !== capture.currency) return refuse("REFUND_CAPTURE_CURRENCY_MISMATCH", "/amount/currency_code");
    const minor = amount?.minor ?? capture.minor - capture.refundedMinor;
    if (minor > capture.minor - capture.refundedMinor) return refuse("REFUND_AMOUNT_EXCEEDED");
    const refund = addRefund(capture, minor, nextRefundPending ? "PENDING" : "COMPLETED");
    nextRefundPending = false;
    return { status: 201, body: refundJson(refund) };
  }

  function addRefund(capture: FakeCapture, minor: number, status: FakeRefund["status"]): FakeRefund {
    capture.refundedMinor += minor;
    capture.status = capture.refundedMinor === capture.minor ? "REFUNDED" : "PARTIALLY_REFUNDED";
    const refund: FakeRefund = { id: paypalId(), captureId: capture.id, currency: capture.currency, minor, status, totalRefundedMinor: capture.refundedMinor };
    refunds.set(refund.id, refund);
    return refund;
  }

  /** Webhooks v1 documents no issue list for this call: its 400 names the fields, with PayPal's generic words. */
  function verifyWebhook(body: unknown): Answer {
    const check = new Checker("INVALID_PARAMETER_SYNTAX");
    const root = check.object(body, "", true);
    const fields = ["auth_algo", "cert_url", "transmission_id", "transmission_sig", "transmission_time", "webhook_id"];
    if (root) {
      check.onlyKeys(root, "", [...fields, "webhook_event"]);
      for (const name of fields) check.text(root, name, "", true);
      check.object(root.webhook_event, "webhook_event", true);
    }
    if (!root || check.issues.length) {
      const details = check.issues.map((problem) => ({ ...problem, description: "A required field is missing or not valid." }));
      return { status: 400, body: errorBody(400, details) };
    }
    return { status: 200, body: { verification_status: root.webhook_id === webhookId ? verificationStatus : "FAILURE" } };
  }

  /** The buyer's page at PayPal: approving sends the buyer back to the shop's return URL. */
  function buyerPage(orderId: string | undefined): Answer {
    const order = orderId ? orders.get(orderId) : undefined;
    if (!order || !waitsForBuyer(order) || !order.returnUrl) return { status: 404, body: errorBody(404) };
    approve(order.id, nextCaptureOutcome);
    nextCaptureOutcome = "COMPLETED";
    const back = new URL(order.returnUrl);
    back.searchParams.set("token", order.id);
    back.searchParams.set("PayerID", "FAKEBUYER2345");
    return { status: 302, body: {}, location: back.toString() };
  }

  function waitsForBuyer(order: FakeOrder): boolean {
    return order.status === "PAYER_ACTION_REQUIRED" || order.status === "CREATED" || (order.status === "APPROVED" && order.fundingDeclined);
  }

  function approve(orderId: string, capture: FakeCaptureOutcome = "COMPLETED"): void {
    const order = orders.get(orderId);
    if (!order || !waitsForBuyer(order)) throw new Error(`Fake PayPal: order ${orderId} is not waiting for the buyer`);
    setStatus(order, "APPROVED");
    order.fundingDeclined = false;
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
  const idempotentRoutes: readonly [RegExp, Endpoint, (match: RegExpExecArray, body: unknown) => Answer][] = [
    [/^\/v2\/checkout\/orders$/, endpoints.createOrder, (_match, body) => createOrder(body)],
    [/^\/v2\/checkout\/orders\/([^/]+)\/capture$/, endpoints.capture, (match, body) => captureOrder(match[1] ?? "", body)],
    [/^\/v2\/payments\/captures\/([^/]+)\/refund$/, endpoints.refund, (match, body) => refundCapture(match[1] ?? "", body)],
  ];

  /** The header's rules: required here, and at most 108 characters (Orders v2's `paypal_request_id` parameter). */
  function requestIdProblem(endpoint: Endpoint, requestId: string | undefined): Answer | undefined {
    const field = "PayPal-Request-Id";
    if (!requestId) {
      // Create documents its own issue for a missing id; capture and refund the generic one.
      const issue = endpoint === endpoints.createOrder ? "PAYPAL_REQUEST_ID_REQUIRED" : "MISSING_REQUIRED_PARAMETER";
      return refusal(endpoint, 400, [{ field, issue, location: "header" }]);
    }
    if (requestId.length > 108) return refusal(endpoint, 400, [{ field, issue: "INVALID_STRING_LENGTH", location: "header" }]);
    return undefined;
  }

  function route(request: RecordedRequest): Answer {
    const { method, path } = request;
    if (method === "GET" && path === "/checkoutnow") return buyerPage(request.query.token);
    if (method === "POST" && path === "/v1/oauth2/token") return token(request);
    if (!authorized(request)) return { status: 401, body: errorBody(401) };
    if (method === "POST" && !request.headers["content-type"]?.startsWith("application/json")) return { status: 415, body: errorBody(415) };

    if (method === "GET") {
      const order = /^\/v2\/checkout\/orders\/([^/]+)$/.exec(path);
      if (order) {
        const found = orders.get(order[1] ?? "");
        return found ? { status: 200, body: orderJson(found) } : notFound(endpoints.getOrder);
      }
      const capture = /^\/v2\/payments\/captures\/([^/]+)$/.exec(path);
      if (capture) {
        const found = captures.get(capture[1] ?? "");
        return found ? { status: 200, body: captureJson(found) } : notFound(endpoints.getCapture);
      }
      const refund = /^\/v2\/payments\/refunds\/([^/]+)$/.exec(path);
      if (refund) {
        const found = refunds.get(refund[1] ?? "");
        return found ? { status: 200, body: refundJson(found) } : notFound(endpoints.getRefund);
      }
      if (path === "/v1/notifications/webhooks") return { status: 200, body: { webhooks: webhooks.map(webhookJson) } };
    }
    if (method === "POST" && request.body === null) return { status: 400, body: errorBody(400, [{ field: "/", location: "body", issue: "MALFORMED_REQUEST_JSON", description: "The request JSON is not well formed." }]) };
    if (method === "POST" && path === "/v1/notifications/verify-webhook-signature") return verifyWebhook(request.body);
    for (const [pattern, endpoint, handle] of idempotentRoutes) {
      const match = method === "POST" ? pattern.exec(path) : null;
      if (!match) continue;
      const requestId = request.headers["paypal-request-id"];
      const problem = requestIdProblem(endpoint, requestId);
      if (problem) return problem;
      const key = `${path} ${requestId}`;
      const earlier = replies.get(key);
      if (earlier) return earlier;
      const answer = handle(match, request.body);
      // PayPal answers a repeated id with "the latest status of the previous request"
      // (https://developer.paypal.com/api/rest/reference/idempotency/), refusals included; only a
      // malformed request is not kept, so the same id with a corrected body may try again.
      if (answer.status !== 400) replies.set(key, answer);
      return answer;
    }
    return { status: 404, body: errorBody(404) };
  }

  function webhookJson(webhook: FakeWebhook & { id: string }) {
    return {
      id: webhook.id,
      url: webhook.url,
      event_types: webhook.event_types.map(({ name }) => ({ name, description: `${name} events`, status: "ENABLED" })),
      links: [{ href: `${baseUrl}/v1/notifications/webhooks/${webhook.id}`, rel: "self", method: "GET" }],
    };
  }

  /**
   * A webhook event as PayPal delivers it (Webhooks v1 `event` schema). The resource of each event
   * type follows PayPal's list of event names (https://developer.paypal.com/api/rest/webhooks/event-names/):
   * a capture for PAYMENT.CAPTURE.*, a refund for PAYMENT.CAPTURE.REVERSED ("PayPal reverses a
   * payment capture"), an order for CHECKOUT.* (PAYMENT-APPROVAL.REVERSED: "a problem occurred
   * after the buyer approved the order but before you captured the payment").
   */
  function webhookEvent(eventType: FakeEventType, orderId: string): string {
    const order = mustOrder(orderId);
    const capture = order.captureId ? captures.get(order.captureId) : undefined;
    const needCapture = (): FakeCapture => {
      if (!capture) throw new Error(`Fake PayPal: order ${orderId} has no capture for ${eventType}`);
      return capture;
    };
    let resourceType: string;
    let resource: unknown;
    switch (eventType) {
      case "PAYMENT.CAPTURE.COMPLETED":
      case "PAYMENT.CAPTURE.DENIED": {
        const settled = needCapture();
        if (settled.status === "PENDING") settled.status = eventType === "PAYMENT.CAPTURE.COMPLETED" ? "COMPLETED" : "DECLINED";
        if (settled.status === "COMPLETED") keepVault(order);
        resourceType = "capture";
        resource = captureJson(settled);
        break;
      }
      case "PAYMENT.CAPTURE.PENDING":
        resourceType = "capture";
        resource = captureJson(needCapture());
        break;
      case "PAYMENT.CAPTURE.REFUNDED": {
        // "A merchant refunds a payment capture": the capture's latest refund.
        const refunded = [...refunds.values()].filter((refund) => refund.captureId === needCapture().id).at(-1);
        if (!refunded) throw new Error(`Fake PayPal: order ${orderId} has no refund for ${eventType}`);
        resourceType = "refund";
        resource = refundJson(refunded);
        break;
      }
      case "PAYMENT.CAPTURE.REVERSED": {
        const reversed = needCapture();
        resourceType = "refund";
        resource = { ...refundJson(addRefund(reversed, reversed.minor - reversed.refundedMinor, "COMPLETED")), note_to_payer: "Payment reversed" };
        break;
      }
      // A dispute's resource follows the Disputes API's `dispute` (https://developer.paypal.com/docs/api/customer-disputes/v1/):
      // its id, the capture it disputes as the seller's transaction, and once resolved its outcome.
      case "CUSTOMER.DISPUTE.CREATED":
      case "CUSTOMER.DISPUTE.RESOLVED": {
        const disputedCapture = needCapture();
        const disputeId = disputeIds.get(disputedCapture.id) ?? `PP-D-${paypalId(5)}`;
        disputeIds.set(disputedCapture.id, disputeId);
        const resolved = eventType === "CUSTOMER.DISPUTE.RESOLVED";
        resourceType = "dispute";
        resource = {
          dispute_id: disputeId,
          create_time: new Date().toISOString(),
          update_time: new Date().toISOString(),
          disputed_transactions: [{ seller_transaction_id: disputedCapture.id, create_time: new Date().toISOString() }],
          reason: "MERCHANDISE_OR_SERVICE_NOT_RECEIVED",
          status: resolved ? "RESOLVED" : "OPEN",
          dispute_amount: { currency_code: disputedCapture.currency, value: valueOf(disputedCapture.minor, disputedCapture.currency) },
          ...(resolved ? { dispute_outcome: { outcome_code: "RESOLVED_SELLER_FAVOUR" } } : {}),
          dispute_life_cycle_stage: resolved ? "CHARGEBACK" : "INQUIRY",
          links: [{ href: `${baseUrl}/v1/customer/disputes/${disputeId}`, rel: "self", method: "GET" }],
        };
        break;
      }
      case "CHECKOUT.ORDER.APPROVED":
        resourceType = "checkout-order";
        resource = orderJson(order);
        break;
      case "CHECKOUT.PAYMENT-APPROVAL.REVERSED":
        setStatus(order, "VOIDED");
        resourceType = "checkout-order";
        resource = { order_id: order.id, purchase_units: [{ reference_id: order.referenceId ?? "default", ...(order.customId ? { custom_id: order.customId } : {}) }] };
        break;
    }
    const id = `WH-${paypalId(17)}`;
    return JSON.stringify({
      id,
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      event_type: eventType,
      event_version: "1.0",
      resource_version: "2.0",
      summary: `${eventType} for ${order.id}`,
      resource,
      links: [{ href: `${baseUrl}/v1/notifications/webhooks-events/${id}`, rel: "self", method: "GET" }],
    });
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

  function send(response: ServerResponse, answer: Answer, request?: RecordedRequest): void {
    if (request) exchanges.push({ request, status: answer.status, body: answer.body });
    const headers: Record<string, string> = { "Content-Type": "application/json", "Paypal-Debug-Id": randomBytes(6).toString("hex") };
    if (answer.location) headers.Location = answer.location;
    response.writeHead(answer.status, headers).end(JSON.stringify(answer.body));
  }

  const server = createServer((incoming, response) => {
    readRequest(incoming)
      .then((request) => {
        requests.push(request);
        const failure = takeFailure(request.path);
        if (failure && !failure.afterProcessing) return send(response, { status: failure.status, body: errorBody(failure.status) }, request);
        let answer: Answer;
        try {
          answer = route(request);
        } catch (error) {
          // The fake's own mistake (an undocumented issue, say): recorded, so the conformance test shows it.
          answer = { status: 500, body: { ...errorBody(500), message: `Fake PayPal failed: ${error instanceof Error ? error.message : String(error)}` } };
        }
        send(response, failure ? { status: failure.status, body: errorBody(failure.status) } : answer, request);
      })
      .catch((error: unknown) => {
        send(response, { status: 500, body: { ...errorBody(500), message: `Fake PayPal failed: ${error instanceof Error ? error.message : String(error)}` } });
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
    exchanges,
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
      setStatus(mustOrder(orderId), "VOIDED");
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
    revokeVault: (vaultId, issue = "PAYMENT_SOURCE_CANNOT_BE_USED") => {
      revokedVaults.set(vaultId, issue);
    },
    setOrderStatus: (orderId, status) => {
      setStatus(mustOrder(orderId), status);
    },
    setNextCaptureOutcome: (outcome) => {
      nextCaptureOutcome = outcome;
    },
    webhookEvent,
    deliverWebhook: (url, eventType, orderId) =>
      fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "PayPal-Auth-Algo": "SHA256withRSA",
          "PayPal-Cert-Url": `${baseUrl}/v1/notifications/certs/CERT-FAKE`,
          "PayPal-Transmission-Id": randomUUID(),
          "PayPal-Transmission-Sig": randomBytes(32).toString("hex"),
          "PayPal-Transmission-Time": new Date().toISOString(),
        },
        body: webhookEvent(eventType, orderId),
      }),
    setNextVaultedOutcome: (outcome) => {
      nextVaultedOutcome = outcome;
    },
    settleRefund(refundId, status) {
      const refund = refunds.get(refundId);
      if (refund?.status !== "PENDING") throw new Error(`Fake PayPal: no pending refund ${refundId}`);
      refund.status = status;
      if (status === "COMPLETED") return;
      const capture = captures.get(refund.captureId);
      if (!capture) return;
      capture.refundedMinor -= refund.minor;
      capture.status = capture.refundedMinor === 0 ? "COMPLETED" : "PARTIALLY_REFUNDED";
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
