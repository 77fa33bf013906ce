import { createHash } from "node:crypto";
import { asObject, listAt, parseJson, textAt } from "./json-fields";

/**
 * The HTTP side of PayPal's REST API over the platform's fetch: an OAuth access token kept until
 * shortly before it expires, JSON in and out, and errors that name what failed without carrying
 * the client secret or the token. Answers of 5xx, 429 and network failures throw, so the caller
 * keeps the payment open and retries with the same PayPal-Request-Id.
 */

export interface PayPalApiOptions {
  clientId: string;
  clientSecret: string;
  /** https://api-m.paypal.com, the sandbox, or a local fake in tests. */
  apiUrl: string;
  now: () => number;
  timeoutMs: number;
}

export interface PayPalAnswer {
  status: number;
  body: unknown;
}

export interface PayPalRequest {
  /** Serialized as JSON. */
  json?: unknown;
  /** JSON text sent as it is (the webhook check must forward PayPal's bytes unchanged). */
  jsonText?: string;
  /** PayPal's idempotency key: the same id returns the first call's answer. */
  requestId?: string;
}

export interface PayPalApi {
  /** Answers 2xx and 4xx (except 401/403) as they come; anything else throws. */
  call(method: "GET" | "POST", path: string, request?: PayPalRequest): Promise<PayPalAnswer>;
}

/** PayPal answered, but not with what the operation needed. The message holds no credentials. */
export class PayPalApiError extends Error {
  readonly status: number;
  readonly errorName: string | null;
  readonly issues: readonly string[];
  readonly debugId: string | null;

  constructor(operation: string, status: number, body: unknown) {
    const errorName = textAt(body, "name") ?? textAt(body, "error") ?? null;
    const issues = listAt(body, "details")
      .map((detail) => textAt(detail, "issue"))
      .filter((issue): issue is string => issue !== undefined);
    const debugId = textAt(body, "debug_id") ?? null;
    const what = [errorName, issues.length ? `(${issues.join(", ")})` : null, debugId ? `debug id ${debugId}` : null].filter(Boolean).join(" ");
    super(`PayPal ${operation} answered ${status}${what ? ` ${what}` : ""}`);
    this.name = "PayPalApiError";
    this.status = status;
    this.errorName = errorName;
    this.issues = issues;
    this.debugId = debugId;
  }
}

/** PayPal could not be reached or did not answer in time: nothing is known about the outcome. */
export class PayPalUnreachable extends Error {
  constructor(operation: string, error: unknown) {
    super(`PayPal ${operation} failed: ${reasonOf(error)}`);
    this.name = "PayPalUnreachable";
  }
}

/** The network error's code or message only: fetch errors never include request headers. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return "unknown error";
  const cause = asObject(error.cause);
  const code = textAt(cause, "code");
  if (error.name === "TimeoutError" || error.name === "AbortError") return "no answer in time";
  return code ?? error.message;
}

/** Refreshes this long before PayPal's expiry (at most half the lifetime), so no request races it. */
const tokenRefreshMarginSeconds = 300;

export function createPayPalApi(options: PayPalApiOptions): PayPalApi {
  const baseUrl = options.apiUrl.replace(/\/+$/, "");
  let cached: { token: string; refreshAt: number } | null = null;
  let pending: Promise<string> | null = null;

  async function exchange(operation: string, url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      throw new PayPalUnreachable(operation, error);
    }
  }

  async function readBody(operation: string, response: Response): Promise<unknown> {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new PayPalUnreachable(operation, error);
    }
    if (text === "") return {};
    const body = parseJson(text);
    if (body === undefined) throw new PayPalApiError(`${operation} (unreadable answer)`, response.status, undefined);
    return body;
  }

  async function fetchToken(): Promise<string> {
    const operation = "POST /v1/oauth2/token";
    const startedAt = options.now();
    const credentials = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString("base64");
    const response = await exchange(operation, `${baseUrl}/v1/oauth2/token`, {
      method: "POST",
      headers: { Authorization: `Basic ${credentials}`, "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: "grant_type=client_credentials",
    });
    const body = await readBody(operation, response);
    const token = textAt(body, "access_token");
    const expiresIn = asObject(body)?.expires_in;
    if (!response.ok || !token || typeof expiresIn !== "number") throw new PayPalApiError(operation, response.status, response.ok ? undefined : body);
    const margin = Math.min(tokenRefreshMarginSeconds, expiresIn / 2);
    cached = { token, refreshAt: startedAt + (expiresIn - margin) * 1000 };
    return token;
  }

  async function accessToken(): Promise<string> {
    if (cached && options.now() < cached.refreshAt) return cached.token;
    // Concurrent calls share one token request instead of each fetching their own.
    pending ??= fetchToken().finally(() => {
      pending = null;
    });
    return pending;
  }

  async function send(method: string, path: string, request: PayPalRequest, token: string): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "application/json", Prefer: "return=representation" };
    if (request.requestId !== undefined) headers["PayPal-Request-Id"] = payPalRequestId(request.requestId);
    let body: string | undefined;
    if (request.jsonText !== undefined) body = request.jsonText;
    else if (request.json !== undefined) body = JSON.stringify(request.json);
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return exchange(`${method} ${path}`, `${baseUrl}${path}`, { method, headers, body });
  }

  return {
    async call(method, path, request = {}) {
      const operation = `${method} ${path}`;
      let response = await send(method, path, request, await accessToken());
      if (response.status === 401) {
        // PayPal can revoke a token before its announced expiry: fetch a new one and try once more.
        // The retry carries the same PayPal-Request-Id, so it cannot create anything twice.
        await response.body?.cancel();
        cached = null;
        response = await send(method, path, request, await accessToken());
      }
      const body = await readBody(operation, response);
      if (response.status >= 500 || response.status === 429 || response.status === 401 || response.status === 403) throw new PayPalApiError(operation, response.status, body);
      return { status: response.status, body };
    },
  };
}

/** A PayPal id as a path segment: letters, digits, dashes and underscores, so no path can be smuggled in. */
export function idSegment(id: string, what: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new Error(`${JSON.stringify(id.slice(0, 80))} is not a PayPal ${what} id`);
  return id;
}

/** Orders v2 caps `PayPal-Request-Id` at 108 characters (its `paypal_request_id` parameter). */
export const payPalRequestIdMaxLength = 108;

/**
 * Our idempotency key as PayPal's request id: as it is when it fits, else a hash of it, so a
 * retry of the same call still sends the same id and two different keys never share one.
 */
export function payPalRequestId(idempotencyKey: string): string {
  if (idempotencyKey.length <= payPalRequestIdMaxLength) return idempotencyKey;
  return `sha256-${createHash("sha256").update(idempotencyKey).digest("base64url")}`;
}
