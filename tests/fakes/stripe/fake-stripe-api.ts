import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { browserRoute } from "./fake-stripe-browser";
import { describedOperation, loadStripeSchema, requestProblems, type FormObject } from "./stripe-openapi";

export type { FormObject, FormValue } from "./stripe-openapi";

/**
 * TEST SUPPORT ONLY: a local stand-in for the part of Stripe's API our provider uses (customers,
 * PaymentIntents, refunds) and for Stripe's webhook signatures. It holds the provider to the
 * contract: a Bearer secret key, form-encoded bodies with bracket notation, parameters as Stripe's
 * own OpenAPI document describes them (openapi-subset.json: an unknown name is a 400
 * `parameter_unknown`, a wrong type a `parameter_invalid`), an Idempotency-Key on every POST (the
 * same key and parameters replay the first answer; the same key with other parameters is an
 * `idempotency_error`). Test payment methods behave like Stripe's test tokens. Tests play the
 * buyer and the bank through its controls. Never import it from application code.
 */

export interface FakeWebhookEndpoint {
  url: string;
  enabled_events: string[];
  /** Default "enabled". */
  status?: "enabled" | "disabled";
  /** The API version its events are rendered in; default null (the account's default version). */
  api_version?: string | null;
}

export interface FakePaymentMethodConfiguration {
  /** Default "Default". */
  name?: string;
  /** Default true. */
  active?: boolean;
  /** Default true. */
  is_default?: boolean;
  /** Method types (`card`, `swish`, ...) switched on in this configuration; every other one is off. */
  enabled: string[];
}

export interface FakeStripeOptions {
  /** `sk_test_...` (default: a fresh one) or `sk_live_...`, which makes every object `livemode: true`. */
  secretKey?: string;
  webhookSecret?: string;
  /** What GET /v1/webhook_endpoints lists (default none). */
  webhookEndpoints?: FakeWebhookEndpoint[];
  /** What GET /v1/payment_method_configurations lists (default one with card only). */
  paymentMethodConfigurations?: FakePaymentMethodConfiguration[];
  /**
   * Stripe keeps its Stripe.js flow: 3-D Secure comes back as a `use_stripe_sdk` next action even
   * though the request sent `use_stripe_sdk=false`. That is the reading in which a ConfirmationToken's
   * own `use_stripe_sdk`, which "Defaults to `true`" (docs.stripe.com/api/confirmation_tokens/object),
   * wins; on-session confirmations with a kept method answer the same, so the upsell page is tried
   * against it too. Stripe.js finishes it with `stripe.handleNextAction({ clientSecret })`.
   */
  stripeSdkWins?: boolean;
}

export interface RecordedStripeRequest {
  method: string;
  path: string;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  rawBody: string;
  params: FormObject;
  /** The status the fake answered. */
  status: number;
  /** The JSON the fake answered (undefined for the browser's pages and dropped connections). */
  responseBody?: unknown;
  /** Answered by a failure a test asked for (`failNext`) before the request was read. */
  injectedFailure?: true;
}

export interface FakeFailure {
  /** Default 500. */
  status?: number;
  /** Only a request whose path contains this fails; default any request. */
  path?: string;
  /** Do the work first and then answer the failure, as when the answer is lost on the way back. */
  afterProcessing?: boolean;
  /** Drop the connection without an answer instead of answering an error. */
  dropConnection?: boolean;
}

/** The magic test methods, as Stripe's test tokens behave. Any `pm_` id containing `sepa` is a SEPA debit. */
export const fakeTestPaymentMethods = {
  succeeds: "pm_card_visa",
  declined: "pm_card_chargeDeclined",
  insufficientFunds: "pm_card_chargeDeclinedInsufficientFunds",
  /** Like card 4000 0027 6000 3184: 3-D Secure on every payment; off-session charges fail with authentication_required. */
  authenticationRequired: "pm_card_authenticationRequired",
  sepaDebit: "pm_sepa_debit",
  /** A method the buyer approves on its own page each time (Swish, MobilePay, TWINT, EPS, Klarna). */
  redirect: "pm_redirect",
  /** Bancontact: approved at the bank; saved for later as the SEPA debit Stripe generates from it. */
  bancontact: "pm_bancontact",
} as const;

/** Method types that pay through their own page and cannot be charged again. */
const redirectTypes = ["swish", "mobilepay", "twint", "eps", "klarna"];

/**
 * The smallest amount Stripe charges per currency, in minor units (docs.stripe.com/currencies,
 * "Minimum and maximum charge amounts"); other currencies are not sold here and use 50.
 */
export const minimumChargeAmounts: Readonly<Record<string, number>> = { eur: 50, gbp: 30, sek: 300, dkk: 250, nok: 300, chf: 50, pln: 200, czk: 1500, huf: 17500, usd: 50 };

type MethodBehaviour = keyof typeof fakeTestPaymentMethods;

export interface FakeStripe {
  readonly url: string;
  readonly secretKey: string;
  readonly webhookSecret: string;
  readonly requests: readonly RecordedStripeRequest[];
  /** Recorded requests with this method whose path matches. */
  requestsTo(method: string, path: string | RegExp): RecordedStripeRequest[];
  /** How many objects of a kind exist: a replayed idempotency key must not add one. */
  count(kind: "customers" | "payment_intents" | "charges" | "refunds" | "payment_methods"): number;
  /** The PaymentIntent as GET /v1/payment_intents/:id answers it. */
  paymentIntent(id: string): Record<string, unknown>;
  /** The ids of the PaymentIntents made, oldest first, as the dashboard lists them: those whose answer was lost too. */
  paymentIntentIds(): string[];
  /** A charge as Stripe shows it in `charge.*` events. */
  charge(id: string): Record<string, unknown>;
  /** A PaymentMethod the fake made from a test token (with the customer it is attached to). */
  paymentMethod(id: string): Record<string, unknown>;
  /** A refund as GET /v1/refunds/:id and the `refund.*` events show it. */
  refund(id: string): Record<string, unknown>;
  /** The next refund Stripe accepts stays `pending` until `settleRefund` (as SEPA and some card refunds do). */
  holdNextRefund(): void;
  /** A pending refund completes or fails; a failed one gives the amount back to the charge's refundable rest. */
  settleRefund(refundId: string, outcome: "succeeded" | "failed"): void;
  /** A dispute the bank opened on the intent's charge, as in `charge.dispute.created`. */
  dispute(paymentIntentId: string): Record<string, unknown>;
  /**
   * The dispute as `charge.dispute.closed` shows it: "Occurs when a dispute is closed and the dispute
   * status changes to lost, warning_closed, or won" (https://docs.stripe.com/api/events/types).
   */
  closeDispute(disputeId: string, status: "won" | "lost" | "warning_closed"): Record<string, unknown>;
  /** A ConfirmationToken for a test method, as Stripe's test helper creates one. */
  confirmationToken(paymentMethod: string): string;
  /** The buyer on Stripe's authentication page: approves (the payment succeeds) or fails. */
  authenticate(paymentIntentId: string, approved: boolean): void;
  /** The bank settles a processing SEPA debit. */
  settle(paymentIntentId: string, outcome: "succeeded" | "failed"): void;
  /** Stripe cancels the intent (abandoned, or from the dashboard). */
  cancel(paymentIntentId: string): void;
  /** The next matching request fails; calls queue up. */
  failNext(failure?: FakeFailure): void;
  /** An event body as Stripe sends it to webhooks. */
  event(type: string, object: unknown, id?: string): string;
  /** The `Stripe-Signature` header for a body (default: now, the fake's webhook secret). */
  signature(rawBody: string, options?: { timestampSeconds?: number; secret?: string }): string;
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
}

interface StripeErrorFields {
  type: "invalid_request_error" | "card_error" | "api_error" | "idempotency_error";
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  payment_intent?: unknown;
  payment_method?: unknown;
  charge?: string;
}

const stripeError = (status: number, error: StripeErrorFields): Answer => ({ status, body: { error: { ...error, doc_url: error.code ? `https://docs.stripe.com/error-codes/${error.code}` : undefined } } });
const invalid = (message: string, param?: string, code?: string): Answer => stripeError(400, { type: "invalid_request_error", message, param, code });
const notFound = (kind: string, id: string, param?: string): Answer => stripeError(404, { type: "invalid_request_error", code: "resource_missing", param, message: `No such ${kind}: '${id}'` });

interface FakeCustomer {
  id: string;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  created: number;
}

interface FakeMethod {
  id: string;
  behaviour: MethodBehaviour;
  /** The method's type when it is not a card or SEPA debit (a redirect method). */
  type?: string;
  customer: string | null;
  /** Used once without a customer: Stripe refuses to use it again. */
  consumed: boolean;
  created: number;
}

type IntentStatus = "requires_payment_method" | "requires_action" | "processing" | "succeeded" | "canceled";

interface LastPaymentError {
  type: string;
  code: string;
  decline_code?: string;
  message: string;
  payment_method: unknown;
}

interface FakeIntent {
  id: string;
  amount: number;
  currency: string;
  customer: string | null;
  paymentMethod: string | null;
  status: IntentStatus;
  setupFutureUsage: "on_session" | "off_session" | null;
  metadata: Record<string, string>;
  description: string | null;
  returnUrl: string | null;
  nextAction: unknown;
  /** Listed method types, or null when the account's dashboard methods apply (automatic_payment_methods). */
  paymentMethodTypes: string[] | null;
  allowRedirects: "always" | "never";
  lastPaymentError: LastPaymentError | null;
  latestCharge: string | null;
  cancellationReason: string | null;
  created: number;
}

interface FakeCharge {
  id: string;
  /** For a saved Bancontact payment: the SEPA debit method Stripe generated from it. */
  generatedSepaDebit?: string;
  amount: number;
  amountRefunded: number;
  currency: string;
  paymentIntent: string;
  paymentMethod: string;
  customer: string | null;
  created: number;
}

interface FakeRefund {
  id: string;
  amount: number;
  charge: string;
  paymentIntent: string;
  currency: string;
  status: "pending" | "succeeded" | "failed";
  created: number;
}

interface StoredAnswer {
  fingerprint: string;
  answer: Answer;
}

interface PendingFailure {
  status: number;
  path: string | undefined;
  afterProcessing: boolean;
  dropConnection: boolean;
}

const idAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
function stripeId(prefix: string, length = 24): string {
  return `${prefix}_${Array.from(randomBytes(length), (byte) => idAlphabet[byte % idAlphabet.length]).join("")}`;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** The fake keeps no personal data: billing details are always empty. */
const noBillingDetails = { address: null, email: null, name: null, phone: null };

function newForm(): FormObject {
  // No prototype: a parameter called `constructor` or `__proto__` is just a name.
  return Object.create(null) as FormObject;
}

/** Stripe's bracket notation: `a[b][c]=v`, and `a[0]=v` for lists (kept as keys "0", "1", ...). */
export function parseStripeForm(body: string): { params: FormObject } | { problem: string } {
  const params = newForm();
  for (const [name, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]+\])*)$/.exec(name);
    if (!match?.[1]) return { problem: `Invalid parameter name: ${name}` };
    const path = [match[1], ...Array.from((match[2] ?? "").matchAll(/\[([^[\]]+)\]/g), (segment) => segment[1] ?? "")];
    let node = params;
    for (const segment of path.slice(0, -1)) {
      const existing = Object.hasOwn(node, segment) ? node[segment] : undefined;
      if (existing === undefined) {
        const child = newForm();
        node[segment] = child;
        node = child;
      } else if (typeof existing === "string") {
        return { problem: `Parameter ${name} conflicts with a plain value` };
      } else {
        node = existing;
      }
    }
    const last = path[path.length - 1] ?? "";
    if (Object.hasOwn(node, last)) return { problem: `Parameter ${name} was given more than once` };
    node[last] = value;
  }
  return { params };
}

/**
 * Reads one request's parameters, collecting the first problem. Names and types were already
 * checked against Stripe's schema; this adds the rules the schema cannot say.
 */
class Params {
  problem: Answer | null = null;

  constructor(private readonly params: FormObject) {}

  private fail(message: string, param: string, code = "parameter_invalid"): undefined {
    this.problem ??= invalid(message, param, code);
    return undefined;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.params, key);
  }

  text(key: string, required = false): string | undefined {
    const value = this.has(key) ? this.params[key] : undefined;
    if (value === undefined) return required ? this.fail(`Missing required param: ${key}.`, key, "parameter_missing") : undefined;
    if (typeof value !== "string") return this.fail(`Invalid string: ${key} must be a plain value`, key);
    return value;
  }

  integer(key: string, required = false): number | undefined {
    const value = this.text(key, required);
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) return this.fail(`Invalid integer: ${value}`, key, "parameter_invalid_integer");
    return Number(value);
  }

  boolean(key: string): boolean | undefined {
    const value = this.text(key);
    if (value === undefined) return undefined;
    if (value !== "true" && value !== "false") return this.fail(`Invalid boolean: ${value}`, key);
    return value === "true";
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const value = this.text(key);
    if (value === undefined) return undefined;
    if (!(values as readonly string[]).includes(value)) return this.fail(`Invalid ${key}: must be one of ${values.join(", ")}`, key);
    return value as T;
  }

  object(key: string): FormObject | undefined {
    const value = this.has(key) ? this.params[key] : undefined;
    if (value === undefined) return undefined;
    if (typeof value === "string") return this.fail(`Invalid object: ${key} must be a hash`, key);
    return value;
  }

  metadata(key = "metadata"): Record<string, string> {
    const value = this.has(key) ? this.params[key] : undefined;
    if (value === undefined) return {};
    if (typeof value === "string") {
      // Stripe accepts an empty string to clear metadata; nothing else as a plain value.
      if (value !== "") this.fail("Invalid object: metadata must be a hash", key);
      return {};
    }
    const entries = Object.entries(value);
    if (entries.length > 50) this.fail("Metadata may have at most 50 keys", key);
    const metadata: Record<string, string> = {};
    for (const [name, entry] of entries) {
      if (typeof entry !== "string") {
        this.fail(`Invalid metadata[${name}]: must be a string`, `${key}[${name}]`);
        continue;
      }
      if (name.length > 40) this.fail(`Metadata keys may be at most 40 characters (${name})`, `${key}[${name}]`);
      if (entry.length > 500) this.fail(`Metadata values may be at most 500 characters (${name})`, `${key}[${name}]`);
      metadata[name] = entry;
    }
    return metadata;
  }
}

function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function canonicalParams(rawBody: string): string {
  return [...new URLSearchParams(rawBody)].map(([name, value]) => `${name}=${value}`).sort().join("&");
}

export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? `sk_test_fake${randomBytes(12).toString("hex")}`;
  const webhookSecret = options.webhookSecret ?? `whsec_fake${randomBytes(16).toString("hex")}`;
  if (!/^sk_(?:test|live)_/.test(secretKey)) throw new Error("The fake Stripe API takes sk_test_ or sk_live_ keys");
  const livemode = secretKey.startsWith("sk_live_");
  await loadStripeSchema();

  const requests: RecordedStripeRequest[] = [];
  const customers = new Map<string, FakeCustomer>();
  const methods = new Map<string, FakeMethod>();
  const intents = new Map<string, FakeIntent>();
  const charges = new Map<string, FakeCharge>();
  const refunds = new Map<string, FakeRefund>();
  const disputes = new Map<string, Record<string, unknown> & { id: string; status: string }>();
  const confirmationTokens = new Map<string, { paymentMethod: string; used: boolean }>();
  let holdRefund = false;
  const idempotent = new Map<string, StoredAnswer>();
  const failures: PendingFailure[] = [];
  let baseUrl = "";

  // ---- objects as the API shows them -------------------------------------------------------

  const webhookEndpoints = (options.webhookEndpoints ?? []).map((endpoint) => ({
    id: stripeId("we"),
    object: "webhook_endpoint",
    api_version: endpoint.api_version ?? null,
    application: null,
    created: nowSeconds(),
    description: null,
    enabled_events: endpoint.enabled_events,
    livemode,
    metadata: {},
    status: endpoint.status ?? "enabled",
    url: endpoint.url,
  }));

  /** Every method type the fake knows, on or off in a configuration (schema payment_method_configuration). */
  const configurableTypes = ["card", "sepa_debit", "bancontact", "ideal", "eps", "klarna", "mobilepay", "swish", "twint", "paypal", "apple_pay", "google_pay", "link"];
  const paymentMethodConfigurations = (options.paymentMethodConfigurations ?? [{ enabled: ["card"] }]).map((configuration) => ({
    id: stripeId("pmc"),
    object: "payment_method_configuration",
    active: configuration.active ?? true,
    application: null,
    is_default: configuration.is_default ?? true,
    livemode,
    name: configuration.name ?? "Default",
    parent: null,
    ...Object.fromEntries(
      configurableTypes.map((type) => {
        const value = configuration.enabled.includes(type) ? "on" : "off";
        return [type, { available: value === "on", display_preference: { overridable: null, preference: value, value } }];
      }),
    ),
  }));

  function customerJson(customer: FakeCustomer) {
    return { id: customer.id, object: "customer", email: customer.email, name: customer.name, metadata: customer.metadata, created: customer.created, livemode };
  }

  function methodJson(method: FakeMethod) {
    const isSepa = method.behaviour === "sepaDebit";
    if (method.behaviour === "bancontact") return { id: method.id, object: "payment_method", billing_details: noBillingDetails, type: "bancontact", customer: method.customer, created: method.created, livemode, bancontact: {} };
    if (method.type) return { id: method.id, object: "payment_method", billing_details: noBillingDetails, type: method.type, customer: method.customer, created: method.created, livemode, [method.type]: {} };
    return {
      id: method.id,
      object: "payment_method",
      billing_details: noBillingDetails,
      type: isSepa ? "sepa_debit" : "card",
      customer: method.customer,
      created: method.created,
      livemode,
      ...(isSepa ? { sepa_debit: { country: "DE", last4: "3000" } } : { card: { brand: "visa", funding: "credit", last4: "4242", exp_month: 12, exp_year: 2034 } }),
    };
  }

  function intentJson(intent: FakeIntent, expandCharge = false) {
    const charge = expandCharge && intent.latestCharge ? charges.get(intent.latestCharge) : undefined;
    return {
      id: intent.id,
      object: "payment_intent",
      amount: intent.amount,
      amount_received: intent.status === "succeeded" ? intent.amount : 0,
      automatic_payment_methods: intent.paymentMethodTypes ? null : { enabled: true, allow_redirects: intent.allowRedirects },
      cancellation_reason: intent.cancellationReason,
      capture_method: "automatic_async",
      client_secret: `${intent.id}_secret_${intent.id.slice(-8)}`,
      confirmation_method: "automatic",
      created: intent.created,
      currency: intent.currency,
      customer: intent.customer,
      description: intent.description,
      last_payment_error: intent.lastPaymentError,
      latest_charge: charge ? chargeJson(charge) : intent.latestCharge,
      livemode,
      metadata: intent.metadata,
      next_action: intent.nextAction,
      payment_method: intent.paymentMethod,
      payment_method_types: intent.paymentMethodTypes ?? ["card", "sepa_debit", ...redirectTypes],
      setup_future_usage: intent.setupFutureUsage,
      status: intent.status,
    };
  }

  function chargeJson(charge: FakeCharge) {
    return {
      id: charge.id,
      object: "charge",
      amount: charge.amount,
      amount_captured: charge.amount,
      amount_refunded: charge.amountRefunded,
      billing_details: noBillingDetails,
      captured: true,
      currency: charge.currency,
      customer: charge.customer,
      disputed: false,
      metadata: {},
      paid: true,
      payment_intent: charge.paymentIntent,
      payment_method: charge.paymentMethod,
      payment_method_details: charge.generatedSepaDebit ? { type: "bancontact", bancontact: { generated_sepa_debit: charge.generatedSepaDebit } } : { type: "card" },
      refunded: charge.amountRefunded >= charge.amount,
      status: "succeeded",
      created: charge.created,
      livemode,
    };
  }

  function refundJson(refund: FakeRefund) {
    return {
      id: refund.id,
      object: "refund",
      amount: refund.amount,
      charge: refund.charge,
      payment_intent: refund.paymentIntent,
      currency: refund.currency,
      status: refund.status,
      // Stripe names why a refund failed (docs.stripe.com/refunds#failed-refunds).
      ...(refund.status === "failed" ? { failure_reason: "declined" } : {}),
      metadata: {},
      created: refund.created,
    };
  }

  // ---- payment behaviour ---------------------------------------------------------------------

  function magicBehaviour(id: string): MethodBehaviour | null {
    for (const [behaviour, token] of Object.entries(fakeTestPaymentMethods) as [MethodBehaviour, string][]) if (token === id) return behaviour;
    return id.includes("sepa") ? "sepaDebit" : null;
  }

  /** A stored method, or a fresh one made from a test token (each use of a token makes a new method, as at Stripe). */
  function resolveMethod(id: string): FakeMethod | null {
    const stored = methods.get(id);
    if (stored) return stored;
    const behaviour = magicBehaviour(id);
    if (!behaviour) return null;
    const method: FakeMethod = { id: stripeId("pm"), behaviour, customer: null, consumed: false, created: nowSeconds() };
    methods.set(method.id, method);
    return method;
  }

  function succeed(intent: FakeIntent, method: FakeMethod): void {
    const charge: FakeCharge = { id: stripeId("ch"), amount: intent.amount, amountRefunded: 0, currency: intent.currency, paymentIntent: intent.id, paymentMethod: method.id, customer: intent.customer, created: nowSeconds() };
    if (method.behaviour === "bancontact" && intent.setupFutureUsage && intent.customer) {
      const generated: FakeMethod = { id: stripeId("pm"), behaviour: "sepaDebit", customer: intent.customer, consumed: false, created: nowSeconds() };
      methods.set(generated.id, generated);
      charge.generatedSepaDebit = generated.id;
    }
    charges.set(charge.id, charge);
    intent.status = "succeeded";
    intent.latestCharge = charge.id;
    intent.nextAction = null;
    intent.lastPaymentError = null;
  }

  /** After a confirmation went through: a method meant for later use is attached to the customer. */
  function keepMethod(intent: FakeIntent, method: FakeMethod): void {
    if (intent.setupFutureUsage && intent.customer) method.customer = intent.customer;
    else if (!method.customer) method.consumed = true;
  }

  function fail(intent: FakeIntent, method: FakeMethod, error: { type: string; code: string; decline_code?: string; message: string }): void {
    intent.status = "requires_payment_method";
    intent.paymentMethod = null;
    intent.nextAction = null;
    intent.lastPaymentError = { ...error, payment_method: methodJson(method) };
  }

  function cardErrorAnswer(intent: FakeIntent): Answer {
    const last = intent.lastPaymentError;
    return stripeError(402, {
      type: "card_error",
      code: last?.code ?? "card_declined",
      decline_code: last?.decline_code,
      message: last?.message ?? "Your card was declined.",
      payment_intent: intentJson(intent),
      payment_method: last?.payment_method,
    });
  }

  /**
   * The page a buyer is sent to. Stripe answers `use_stripe_sdk` unless the server asked for the
   * redirect flow with `use_stripe_sdk=false` and a `return_url` (docs.stripe.com/payments/3d-secure/authentication-flow,
   * "Manually handle the redirect"; docs.stripe.com/api/payment_intents/confirm#confirm_payment_intent-use_stripe_sdk).
   */
  function authenticationAction(intent: FakeIntent, useStripeSdk: boolean): unknown {
    if (useStripeSdk || !intent.returnUrl) return { type: "use_stripe_sdk", use_stripe_sdk: { type: "three_d_secure_redirect", stripe_js: `${baseUrl}/fake/authenticate/${intent.id}` } };
    return { type: "redirect_to_url", redirect_to_url: { url: `${baseUrl}/fake/authenticate/${intent.id}`, return_url: intent.returnUrl } };
  }

  /**
   * Swish never redirects plainly: its next action carries Stripe's hosted page with the QR code
   * and the app link (docs.stripe.com/payments/swish/accept-a-payment, "Handle the next action";
   * schema payment_intent_next_action_swish_handle_redirect_or_display_qr_code).
   */
  function methodPageAction(intent: FakeIntent, type: string | undefined): unknown {
    const page = `${baseUrl}/fake/authenticate/${intent.id}`;
    if (type === "swish") {
      return {
        type: "swish_handle_redirect_or_display_qr_code",
        swish_handle_redirect_or_display_qr_code: {
          hosted_instructions_url: page,
          mobile_auth_url: `swish://paymentrequest?token=${intent.id}`,
          qr_code: { data: intent.id, image_url_png: `${page}.png`, image_url_svg: `${page}.svg` },
        },
      };
    }
    return { type: "redirect_to_url", redirect_to_url: { url: page, return_url: intent.returnUrl } };
  }

  /** Confirms an intent with a method, as Stripe does on create with confirm=true and on /confirm. */
  function confirmIntent(intent: FakeIntent, methodId: string, offSession: boolean, returnUrl: string | null, useStripeSdk: boolean): Answer {
    const method = resolveMethod(methodId);
    if (!method) return notFound("PaymentMethod", methodId, "payment_method");
    if (method.customer && method.customer !== intent.customer) {
      return invalid(`The provided PaymentMethod belongs to Customer ${method.customer}; pass customer=${method.customer} to use it.`, "payment_method");
    }
    if (!method.customer && method.consumed) {
      return invalid("The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment. It may not be used again.", "payment_method");
    }
    if (offSession && method.customer !== intent.customer) return invalid("An off-session payment needs a PaymentMethod attached to the customer.", "payment_method");
    intent.paymentMethod = method.id;
    intent.returnUrl = returnUrl ?? intent.returnUrl;
    switch (method.behaviour) {
      case "succeeds":
        succeed(intent, method);
        keepMethod(intent, method);
        return { status: 200, body: intentJson(intent) };
      case "declined":
      case "insufficientFunds": {
        const declineCode = method.behaviour === "declined" ? "generic_decline" : "insufficient_funds";
        const message = method.behaviour === "declined" ? "Your card was declined." : "Your card has insufficient funds.";
        fail(intent, method, { type: "card_error", code: "card_declined", decline_code: declineCode, message });
        method.consumed = !method.customer;
        return cardErrorAnswer(intent);
      }
      case "authenticationRequired":
        if (offSession) {
          fail(intent, method, { type: "card_error", code: "authentication_required", decline_code: "authentication_required", message: "Your card was declined. This transaction requires authentication." });
          return cardErrorAnswer(intent);
        }
        intent.status = "requires_action";
        intent.nextAction = authenticationAction(intent, useStripeSdk);
        return { status: 200, body: intentJson(intent) };
      case "redirect":
      case "bancontact":
        if (offSession) return invalid("This PaymentMethod type cannot be used off-session.", "off_session");
        intent.status = "requires_action";
        intent.nextAction = methodPageAction(intent, method.type);
        return { status: 200, body: intentJson(intent) };
      case "sepaDebit":
        intent.status = "processing";
        intent.nextAction = null;
        keepMethod(intent, method);
        return { status: 200, body: intentJson(intent) };
    }
  }

  // ---- endpoints -----------------------------------------------------------------------------

  function createCustomer(params: FormObject): Answer {
    const read = new Params(params);
    const email = read.text("email");
    const name = read.text("name");
    read.text("description");
    const metadata = read.metadata();
    if (email !== undefined && email.length > 512) read.problem ??= invalid("email is too long", "email");
    if (read.problem) return read.problem;
    const customer: FakeCustomer = { id: stripeId("cus", 14), email: email ?? null, name: name ?? null, metadata, created: nowSeconds() };
    customers.set(customer.id, customer);
    return { status: 200, body: customerJson(customer) };
  }

  /** A redirect method made from `payment_method_data`, which must agree with `allowed_payment_method_types`. */
  function methodFromData(read: Params): { methodId: string | null; problem: Answer | null } {
    const data = read.object("payment_method_data");
    const types = Object.values(read.object("allowed_payment_method_types") ?? {});
    const type = typeof data?.type === "string" ? data.type : undefined;
    if (!type || !redirectTypes.includes(type)) return { methodId: null, problem: invalid("payment_method_data[type] must be a payment method type this account offers.", "payment_method_data[type]") };
    if (types.length !== 1 || types[0] !== type) return { methodId: null, problem: invalid("allowed_payment_method_types must list the type of payment_method_data.", "allowed_payment_method_types") };
    const method: FakeMethod = { id: stripeId("pm"), behaviour: "redirect", type, customer: null, consumed: false, created: nowSeconds() };
    methods.set(method.id, method);
    return { methodId: method.id, problem: null };
  }

  /** payment_method, confirmation_token or payment_method_data (only one), as the method to confirm with. */
  function methodToConfirmWith(read: Params): { methodId: string | null; problem: Answer | null; token?: { used: boolean } } {
    if (read.has("payment_method_data")) {
      if (read.has("payment_method") || read.has("confirmation_token")) return { methodId: null, problem: invalid("You may only specify one of these parameters: payment_method, confirmation_token, payment_method_data.", "payment_method_data") };
      return methodFromData(read);
    }
    const paymentMethod = read.text("payment_method");
    const token = read.text("confirmation_token");
    if (paymentMethod !== undefined && token !== undefined) return { methodId: null, problem: invalid("You may only specify one of these parameters: payment_method, confirmation_token.", "confirmation_token") };
    if (token === undefined) return { methodId: paymentMethod ?? null, problem: null };
    const stored = confirmationTokens.get(token);
    if (!stored) return { methodId: null, problem: notFound("confirmationtoken", token, "confirmation_token") };
    // A ConfirmationToken confirms one intent only (docs.stripe.com/api/confirmation_tokens: "used once").
    if (stored.used) return { methodId: null, problem: invalid(`ConfirmationToken ${token} has already been used.`, "confirmation_token", "resource_already_exists") };
    return { methodId: stored.paymentMethod, problem: null, token: stored };
  }

  function createIntent(params: FormObject): Answer {
    const read = new Params(params);
    const amount = read.integer("amount", true);
    const currency = read.text("currency", true);
    const customerId = read.text("customer");
    const confirm = read.boolean("confirm") ?? false;
    const offSession = read.boolean("off_session") ?? false;
    const returnUrl = read.text("return_url");
    const setupFutureUsage = read.oneOf("setup_future_usage", ["on_session", "off_session"] as const);
    const metadata = read.metadata();
    const description = read.text("description");
    const listedTypes = read.object("allowed_payment_method_types");
    const allowRedirects = read.object("automatic_payment_methods")?.allow_redirects === "never" ? "never" : "always";
    const { methodId, problem, token } = methodToConfirmWith(read);
    const useStripeSdk = options.stripeSdkWins === true || (read.boolean("use_stripe_sdk") ?? token !== undefined);
    if (read.problem) return read.problem;
    if (problem) return problem;
    if (amount === undefined || currency === undefined) return invalid("Missing amount or currency", "amount", "parameter_missing");
    // Stripe documents currencies in lower case; the fake insists so a provider cannot drift.
    if (!/^[a-z]{3}$/.test(currency)) return invalid(`Invalid currency: ${currency}. Use a lower-case ISO code.`, "currency");
    const minimum = minimumChargeAmounts[currency] ?? 50;
    if (amount < minimum) return invalid(`Amount must be at least ${minimum} ${currency} minor units`, "amount", "amount_too_small");
    if (amount > 99_999_999) return invalid("Amount must be no more than 99,999,999 minor units", "amount", "amount_too_large");
    if (read.has("off_session") && !confirm) return invalid("You can only pass off_session when confirm is true.", "off_session");
    if (returnUrl !== undefined && !confirm) return invalid("You can only pass return_url when confirm is true.", "return_url");
    if (returnUrl !== undefined && !isAbsoluteHttpUrl(returnUrl)) return invalid("Invalid URL: return_url must be an absolute http(s) URL.", "return_url", "url_invalid");
    if (offSession && setupFutureUsage === "on_session") return invalid("setup_future_usage=on_session cannot be used with off_session.", "setup_future_usage");
    if (customerId !== undefined && !customers.has(customerId)) return notFound("customer", customerId, "customer");
    if (confirm && methodId === null) return invalid("You cannot confirm this PaymentIntent because it's missing a payment method.", "payment_method", "payment_intent_unexpected_state");
    // With the dashboard's methods (no allowed_payment_method_types) some of them redirect, so a confirmation
    // needs somewhere to come back to (docs.stripe.com/payments/save-and-reuse, "Charge the saved payment
    // method later"; docs.stripe.com/api/payment_intents/create#create_payment_intent-return_url).
    if (confirm && !listedTypes && returnUrl === undefined && allowRedirects !== "never" && !useStripeSdk) {
      return invalid(
        "A `return_url` must be specified because this Payment Intent is configured to automatically accept the payment methods enabled in the Dashboard, some of which may require a full page redirect to succeed. If you do not want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.",
        "return_url",
      );
    }

    const intent: FakeIntent = {
      id: stripeId("pi"),
      amount,
      currency,
      customer: customerId ?? null,
      paymentMethod: null,
      status: "requires_payment_method",
      setupFutureUsage: setupFutureUsage ?? null,
      metadata,
      description: description ?? null,
      returnUrl: returnUrl ?? null,
      nextAction: null,
      paymentMethodTypes: listedTypes ? Object.values(listedTypes).filter((type): type is string => typeof type === "string") : null,
      allowRedirects,
      lastPaymentError: null,
      latestCharge: null,
      cancellationReason: null,
      created: nowSeconds(),
    };
    if (methodId !== null && !confirm) {
      if (!resolveMethod(methodId)) return notFound("PaymentMethod", methodId, "payment_method");
      intent.paymentMethod = methodId;
    }
    if (!confirm || methodId === null) {
      intents.set(intent.id, intent);
      return { status: 200, body: intentJson(intent) };
    }
    const answer = confirmIntent(intent, methodId, offSession, returnUrl ?? null, useStripeSdk);
    // A refused method (unknown, someone else's) creates no intent at Stripe either.
    if (answer.status === 200 || answer.status === 402) {
      intents.set(intent.id, intent);
      if (token) token.used = true;
    }
    return answer;
  }

  function confirmExisting(intentId: string, params: FormObject): Answer {
    const intent = intents.get(intentId);
    if (!intent) return notFound("payment_intent", intentId);
    const read = new Params(params);
    const offSession = read.boolean("off_session") ?? false;
    const returnUrl = read.text("return_url");
    const setupFutureUsage = read.oneOf("setup_future_usage", ["on_session", "off_session"] as const);
    const { methodId, problem, token } = methodToConfirmWith(read);
    const useStripeSdk = options.stripeSdkWins === true || (read.boolean("use_stripe_sdk") ?? token !== undefined);
    if (read.problem) return read.problem;
    if (problem) return problem;
    if (returnUrl !== undefined && !isAbsoluteHttpUrl(returnUrl)) return invalid("Invalid URL: return_url must be an absolute http(s) URL.", "return_url", "url_invalid");
    if (intent.status !== "requires_payment_method" && intent.status !== "requires_action") {
      return stripeError(400, {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: `This PaymentIntent's status is ${intent.status}, so it cannot be confirmed.`,
        payment_intent: intentJson(intent),
      });
    }
    const method = methodId ?? intent.paymentMethod;
    if (!method) return invalid("You cannot confirm this PaymentIntent because it's missing a payment method.", "payment_method", "payment_intent_unexpected_state");
    if (setupFutureUsage) intent.setupFutureUsage = setupFutureUsage;
    const answer = confirmIntent(intent, method, offSession, returnUrl ?? null, useStripeSdk);
    if (token && (answer.status === 200 || answer.status === 402)) token.used = true;
    return answer;
  }

  function createRefund(params: FormObject): Answer {
    const read = new Params(params);
    const intentId = read.text("payment_intent");
    const chargeId = read.text("charge");
    const amount = read.integer("amount");
    read.oneOf("reason", ["duplicate", "fraudulent", "requested_by_customer"] as const);
    read.metadata();
    if (read.problem) return read.problem;
    if ((intentId === undefined) === (chargeId === undefined)) return invalid("Pass exactly one of payment_intent or charge.", "payment_intent", "parameter_missing");
    let charge: FakeCharge | undefined;
    if (intentId !== undefined) {
      const intent = intents.get(intentId);
      if (!intent) return notFound("payment_intent", intentId, "payment_intent");
      charge = intent.latestCharge ? charges.get(intent.latestCharge) : undefined;
      if (!charge) return invalid(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, "payment_intent", "charge_not_refundable");
    } else if (chargeId !== undefined) {
      charge = charges.get(chargeId);
      if (!charge) return notFound("charge", chargeId, "charge");
    }
    if (!charge) return invalid("Nothing to refund", "payment_intent");
    const remaining = charge.amount - charge.amountRefunded;
    if (remaining <= 0) return invalid(`Charge ${charge.id} has already been refunded.`, undefined, "charge_already_refunded");
    const refundAmount = amount ?? remaining;
    if (refundAmount < 1) return invalid("Refund amount must be positive.", "amount", "parameter_invalid_integer");
    if (refundAmount > remaining) return invalid(`Refund amount (${refundAmount}) is greater than unrefunded amount on charge (${remaining})`, "amount", "amount_too_large");
    charge.amountRefunded += refundAmount;
    const status = holdRefund ? "pending" : "succeeded";
    holdRefund = false;
    const refund: FakeRefund = { id: stripeId("re"), amount: refundAmount, charge: charge.id, paymentIntent: charge.paymentIntent, currency: charge.currency, status, created: nowSeconds() };
    refunds.set(refund.id, refund);
    return { status: 200, body: refundJson(refund) };
  }

  /**
   * Stripe cancels an intent in requires_payment_method, requires_capture, requires_confirmation or
   * requires_action; otherwise it answers payment_intent_unexpected_state with the intent
   * (docs.stripe.com/api/payment_intents/cancel).
   */
  function cancelIntent(intentId: string, params: FormObject): Answer {
    const intent = intents.get(intentId);
    if (!intent) return notFound("payment_intent", intentId);
    const read = new Params(params);
    const reason = read.oneOf("cancellation_reason", ["duplicate", "fraudulent", "requested_by_customer", "abandoned"] as const);
    if (read.problem) return read.problem;
    if (intent.status !== "requires_payment_method" && intent.status !== "requires_action") {
      return stripeError(400, {
        type: "invalid_request_error",
        code: "payment_intent_unexpected_state",
        message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        payment_intent: intentJson(intent),
      });
    }
    intent.status = "canceled";
    intent.cancellationReason = reason ?? null;
    intent.nextAction = null;
    return { status: 200, body: intentJson(intent) };
  }

  function route(method: string, path: string, params: FormObject): Answer {
    if (method === "POST" && path === "/v1/customers") return createCustomer(params);
    if (method === "POST" && path === "/v1/payment_intents") return createIntent(params);
    if (method === "POST" && path === "/v1/refunds") return createRefund(params);
    const confirmPath = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(path);
    if (method === "POST" && confirmPath?.[1]) return confirmExisting(decodeURIComponent(confirmPath[1]), params);
    const cancelPath = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(path);
    if (method === "POST" && cancelPath?.[1]) return cancelIntent(decodeURIComponent(cancelPath[1]), params);
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && intentPath?.[1]) {
      const read = new Params(params);
      const expand = Object.values(read.object("expand") ?? {});
      if (expand.some((field) => field !== "latest_charge")) return invalid("The fake expands only latest_charge.", "expand");
      if (read.problem) return read.problem;
      const id = decodeURIComponent(intentPath[1]);
      const intent = intents.get(id);
      return intent ? { status: 200, body: intentJson(intent, expand.includes("latest_charge")) } : notFound("payment_intent", id);
    }
    const refundPath = /^\/v1\/refunds\/([^/]+)$/.exec(path);
    if (method === "GET" && refundPath?.[1]) {
      const refund = refunds.get(decodeURIComponent(refundPath[1]));
      return refund ? { status: 200, body: refundJson(refund) } : notFound("refund", decodeURIComponent(refundPath[1]));
    }
    if (method === "GET" && path === "/v1/webhook_endpoints") return { status: 200, body: listJson(path, webhookEndpoints) };
    if (method === "GET" && path === "/v1/payment_method_configurations") return { status: 200, body: listJson(path, paymentMethodConfigurations) };
    return stripeError(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}). The fake implements only what the provider uses.` });
  }

  /** A list object as Stripe pages them; the fake's lists fit in one page. */
  function listJson(url: string, data: unknown[]) {
    return { object: "list", url, has_more: false, data };
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  function authorizationProblem(header: string | undefined): Answer | null {
    if (!header) return stripeError(401, { type: "invalid_request_error", message: "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth." });
    const key = /^Bearer (\S+)$/.exec(header)?.[1];
    if (!key) return stripeError(401, { type: "invalid_request_error", message: "Invalid Authorization header: use Bearer auth with your secret key." });
    // Stripe quotes the key's end: a provider must not pass this message on.
    if (key !== secretKey) return stripeError(401, { type: "invalid_request_error", message: `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}` });
    return null;
  }

  function takeFailure(path: string): PendingFailure | undefined {
    const index = failures.findIndex((failure) => failure.path === undefined || path.includes(failure.path));
    return index === -1 ? undefined : failures.splice(index, 1)[0];
  }

  function readBody(request: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
      request.on("error", reject);
    });
  }

  function headerMap(request: IncomingMessage): Record<string, string> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
    return headers;
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const method = request.method ?? "GET";
    const url = new URL(request.url ?? "/", "http://fake.stripe");
    const path = url.pathname;
    const rawBody = await readBody(request);
    const headers = headerMap(request);
    const record: RecordedStripeRequest = { method, path, headers, rawBody, params: newForm(), status: 0 };
    requests.push(record);

    const send = (answer: Answer, extraHeaders: Record<string, string> = {}) => {
      record.status = answer.status;
      record.responseBody = answer.body;
      const requestId = stripeId("req", 14);
      response.writeHead(answer.status, { "Content-Type": "application/json", "Request-Id": requestId, ...extraHeaders });
      response.end(JSON.stringify(answer.body));
    };

    const browser = browserRoute(
      {
        livemode,
        confirmationToken: (method) => fake.confirmationToken(method),
        authenticate: (id, approved) => fake.authenticate(id, approved),
        returnUrlOf: (id) => intents.get(id)?.returnUrl ?? null,
        intentOfClientSecret: (secret) => {
          const intent = intents.get(secret.split("_secret_")[0] ?? "");
          return intent && intentJson(intent).client_secret === secret ? intentJson(intent) : null;
        },
        paymentIntent: (id) => fake.paymentIntent(id),
      },
      method,
      url,
      rawBody,
    );
    if (browser) {
      record.status = browser.status;
      response.writeHead(browser.status, { "Content-Type": browser.contentType, "Access-Control-Allow-Origin": "*", ...(browser.location ? { Location: browser.location } : {}) });
      response.end(browser.body);
      return;
    }

    const failure = takeFailure(path);
    if (failure && !failure.afterProcessing) record.injectedFailure = true;
    if (failure?.dropConnection) {
      record.status = -1;
      request.socket.destroy();
      return;
    }
    if (failure && !failure.afterProcessing) return send(stripeError(failure.status, { type: "api_error", message: "Something went wrong on Stripe's end (fake failure)." }));

    const unauthorized = authorizationProblem(headers.authorization);
    if (unauthorized) return send(unauthorized);

    let form: FormObject;
    if (method === "POST") {
      if (!(headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) return send(invalid("Stripe takes form-encoded bodies (application/x-www-form-urlencoded)."));
      const parsed = parseStripeForm(rawBody);
      if ("problem" in parsed) return send(invalid(parsed.problem));
      form = parsed.params;
    } else {
      if (rawBody !== "") return send(invalid(`A ${method} request has no body.`));
      const parsed = parseStripeForm(url.search.slice(1));
      if ("problem" in parsed) return send(invalid(parsed.problem));
      form = parsed.params;
    }
    record.params = form;

    // Stripe's own document says which names and types an operation takes.
    if (describedOperation(method, path)) {
      const [schemaProblem] = requestProblems(method, path, form);
      if (schemaProblem) return send(invalid(schemaProblem.message, schemaProblem.param || undefined, schemaProblem.code));
    }

    let answer: Answer;
    let replayed = false;
    const idempotencyKey = headers["idempotency-key"];
    if (method === "POST") {
      if (!idempotencyKey) return send(invalid("The fake requires an Idempotency-Key header on every POST.", undefined, "idempotency_key_missing"));
      if (idempotencyKey.length > 255) return send(invalid("Idempotency keys may be at most 255 characters.", undefined, "idempotency_key_too_long"));
      const fingerprint = `${method} ${path} ${canonicalParams(rawBody)}`;
      const stored = idempotent.get(idempotencyKey);
      if (stored && stored.fingerprint !== fingerprint) {
        return send(stripeError(400, {
          type: "idempotency_error",
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        }));
      }
      if (stored) {
        answer = stored.answer;
        replayed = true;
      } else {
        answer = route(method, path, form);
        // Like Stripe, the first answer of a request that ran is kept, errors included ("regardless of
        // whether it succeeds or fails", docs.stripe.com/api/idempotent_requests): a refusal of the
        // object's state (it names the intent it found) comes back to every retry under that key; a
        // refused parameter did not run, and can be corrected under the same key.
        const ranAndRefused = answer.status === 400 && (answer.body as { error?: { payment_intent?: unknown } }).error?.payment_intent !== undefined;
        if (answer.status === 200 || answer.status === 402 || ranAndRefused) idempotent.set(idempotencyKey, { fingerprint, answer });
      }
    } else {
      answer = route(method, path, form);
    }

    if (failure?.afterProcessing) return send(stripeError(failure.status, { type: "api_error", message: "Something went wrong on Stripe's end (fake failure)." }));
    const echo: Record<string, string> = idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {};
    if (replayed) echo["Idempotent-Replayed"] = "true";
    return send(answer, echo);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(500, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ error: { type: "api_error", message: `Fake Stripe crashed: ${error instanceof Error ? error.message : String(error)}` } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  function requireIntent(id: string): FakeIntent {
    const intent = intents.get(id);
    if (!intent) throw new Error(`Fake Stripe: no PaymentIntent ${id}`);
    return intent;
  }

  function requireMethod(intent: FakeIntent): FakeMethod {
    const method = intent.paymentMethod ? methods.get(intent.paymentMethod) : undefined;
    if (!method) throw new Error(`Fake Stripe: PaymentIntent ${intent.id} has no payment method`);
    return method;
  }

  const fake: FakeStripe = {
    url: baseUrl,
    secretKey,
    webhookSecret,
    requests,
    requestsTo(method, path) {
      return requests.filter((request) => request.method === method && (typeof path === "string" ? request.path === path : path.test(request.path)));
    },
    count(kind) {
      const sizes = { customers: customers.size, payment_intents: intents.size, charges: charges.size, refunds: refunds.size, payment_methods: methods.size };
      return sizes[kind];
    },
    paymentIntent(id) {
      return intentJson(requireIntent(id));
    },
    paymentIntentIds() {
      return [...intents.keys()];
    },
    charge(id) {
      const charge = charges.get(id);
      if (!charge) throw new Error(`Fake Stripe: no charge ${id}`);
      return chargeJson(charge);
    },
    paymentMethod(id) {
      const method = methods.get(id);
      if (!method) throw new Error(`Fake Stripe: no PaymentMethod ${id}`);
      return methodJson(method);
    },
    refund(id) {
      const refund = refunds.get(id);
      if (!refund) throw new Error(`Fake Stripe: no refund ${id}`);
      return refundJson(refund);
    },
    holdNextRefund() {
      holdRefund = true;
    },
    settleRefund(refundId, outcome) {
      const refund = refunds.get(refundId);
      if (refund?.status !== "pending") throw new Error(`Fake Stripe: refund ${refundId} is not pending`);
      refund.status = outcome;
      const charge = charges.get(refund.charge);
      if (outcome === "failed" && charge) charge.amountRefunded -= refund.amount;
    },
    dispute(paymentIntentId) {
      const intent = requireIntent(paymentIntentId);
      if (!intent.latestCharge) throw new Error(`Fake Stripe: PaymentIntent ${paymentIntentId} has no charge to dispute`);
      const dispute = { id: stripeId("dp"), object: "dispute", amount: intent.amount, currency: intent.currency, charge: intent.latestCharge, payment_intent: intent.id, reason: "fraudulent", status: "needs_response", created: nowSeconds(), livemode };
      disputes.set(dispute.id, dispute);
      return { ...dispute };
    },
    closeDispute(disputeId, status) {
      const dispute = disputes.get(disputeId);
      if (!dispute) throw new Error(`Fake Stripe: no dispute ${disputeId}`);
      dispute.status = status;
      return { ...dispute };
    },
    confirmationToken(paymentMethod) {
      if (!magicBehaviour(paymentMethod) && !methods.has(paymentMethod)) throw new Error(`Fake Stripe: ${paymentMethod} is not a test payment method`);
      const token = stripeId("ctoken");
      confirmationTokens.set(token, { paymentMethod, used: false });
      return token;
    },
    authenticate(paymentIntentId, approved) {
      const intent = requireIntent(paymentIntentId);
      if (intent.status !== "requires_action") throw new Error(`Fake Stripe: PaymentIntent ${paymentIntentId} is ${intent.status}, not waiting for authentication`);
      const method = requireMethod(intent);
      if (approved) {
        succeed(intent, method);
        keepMethod(intent, method);
      } else {
        fail(intent, method, { type: "invalid_request_error", code: "payment_intent_authentication_failure", message: "The provided PaymentMethod has failed authentication." });
      }
    },
    settle(paymentIntentId, outcome) {
      const intent = requireIntent(paymentIntentId);
      if (intent.status !== "processing") throw new Error(`Fake Stripe: PaymentIntent ${paymentIntentId} is ${intent.status}, not processing`);
      const method = requireMethod(intent);
      if (outcome === "succeeded") succeed(intent, method);
      else fail(intent, method, { type: "card_error", code: "insufficient_funds", message: "The bank account has insufficient funds." });
    },
    cancel(paymentIntentId) {
      const intent = requireIntent(paymentIntentId);
      if (intent.status === "succeeded" || intent.status === "processing") throw new Error(`Fake Stripe: a ${intent.status} PaymentIntent cannot be canceled`);
      intent.status = "canceled";
      intent.cancellationReason = "abandoned";
      intent.nextAction = null;
    },
    failNext(failure = {}) {
      failures.push({ status: failure.status ?? 500, path: failure.path, afterProcessing: failure.afterProcessing ?? false, dropConnection: failure.dropConnection ?? false });
    },
    event(type, object, id = stripeId("evt")) {
      return JSON.stringify({ id, object: "event", api_version: "2026-10-28.endive", created: nowSeconds(), livemode, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, data: { object } }, null, 2);
    },
    signature(rawBody, signatureOptions = {}) {
      const timestamp = signatureOptions.timestampSeconds ?? nowSeconds();
      const signature = createHmac("sha256", signatureOptions.secret ?? webhookSecret).update(`${timestamp}.${rawBody}`, "utf8").digest("hex");
      return `t=${timestamp},v1=${signature}`;
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK keeps connections alive; they must not hold the server open.
        server.closeAllConnections();
      });
    },
  };
  return fake;
}
