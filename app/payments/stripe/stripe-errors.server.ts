import Stripe from "stripe";

/**
 * Errors of the Stripe provider. Their messages say which call failed and what Stripe answered,
 * never a key, a webhook secret or a signature; the SDK's own error is not kept as `cause`,
 * because it holds the raw request data a logger would print.
 */

/** Stripe answered with an error the provider does not turn into an outcome (4xx of ours, 5xx, 429). */
export class StripeApiError extends Error {
  readonly operation: string;
  readonly statusCode: number | null;
  /** Stripe's error type: `api_error`, `invalid_request_error`, `idempotency_error`, ... */
  readonly stripeType: string | null;
  readonly stripeCode: string | null;
  readonly requestId: string | null;

  constructor(operation: string, details: { statusCode: number | null; stripeType: string | null; stripeCode: string | null; requestId: string | null; description: string | null }) {
    const what = [details.stripeType, details.stripeCode ? `(${details.stripeCode})` : null].filter(Boolean).join(" ");
    const status = details.statusCode === null ? "an error" : String(details.statusCode);
    const description = details.description ? `: ${details.description}` : "";
    const request = details.requestId ? ` [request ${details.requestId}]` : "";
    super(`Stripe ${operation} answered ${status}${what ? ` ${what}` : ""}${description}${request}`);
    this.name = "StripeApiError";
    this.operation = operation;
    this.statusCode = details.statusCode;
    this.stripeType = details.stripeType;
    this.stripeCode = details.stripeCode;
    this.requestId = details.requestId;
  }
}

/** No answer from Stripe (connection refused or dropped, timeout): whether it acted is unknown. */
export class StripeUnreachable extends Error {
  readonly operation: string;

  constructor(operation: string, reason: string) {
    super(`Stripe ${operation} failed: ${reason}`);
    this.name = "StripeUnreachable";
    this.operation = operation;
  }
}

const keyLike = /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9*]+/g;
const webhookSecretLike = /\bwhsec_[A-Za-z0-9+/=]+/g;

/** Removes the given secrets and anything shaped like a Stripe key or webhook secret. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) if (secret) redacted = redacted.split(secret).join("[redacted]");
  return redacted.replace(keyLike, "[redacted]").replace(webhookSecretLike, "[redacted]");
}

/**
 * Our error for a failed SDK call. Errors that are not the SDK's (bugs of ours) pass unchanged.
 * Authentication failures drop Stripe's message, which quotes part of the key.
 */
export function stripeFailure(operation: string, error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  if (error instanceof Stripe.errors.StripeConnectionError) {
    const reason = /timeout/i.test(error.message) ? "no answer in time" : "the connection failed";
    return new StripeUnreachable(operation, reason);
  }
  const keepMessage = !(error instanceof Stripe.errors.StripeAuthenticationError) && !(error instanceof Stripe.errors.StripePermissionError);
  return new StripeApiError(operation, {
    statusCode: error.statusCode ?? null,
    stripeType: error.rawType ?? null,
    stripeCode: error.code ?? null,
    requestId: error.requestId ?? null,
    description: keepMessage && error.message ? redactSecrets(error.message, secrets).slice(0, 300) : null,
  });
}
