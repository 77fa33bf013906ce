import { readFileSync } from "node:fs";
import { OpenAPIBackend, type Document } from "openapi-backend";
import type { RecordedExchange, RecordedRequest } from "./fake-paypal-api";

/**
 * TEST SUPPORT ONLY: checks exchanges with the PayPal fake against PayPal's own OpenAPI documents
 * (`./openapi/`, see the README there), with `openapi-backend`. A request must match an operation
 * of one document and carry what it declares (body, path and query parameters, headers such as
 * `PayPal-Request-Id` with its 108-character limit); the answer must be one the operation
 * documents, in its schema.
 */

const documentNames = ["checkout_orders_v2", "payments_payment_v2", "vault_payment_tokens_v3", "notifications_webhooks_v1"] as const;

/**
 * Calls no document carries, checked elsewhere: the OAuth token (documented only on
 * https://developer.paypal.com/api/rest/authentication/) and the fake's page where the buyer approves.
 */
const outsideTheDocuments = ["/v1/oauth2/token", "/checkoutnow"];

let backends: Promise<OpenAPIBackend[]> | null = null;

async function loadBackends(): Promise<OpenAPIBackend[]> {
  return Promise.all(
    documentNames.map(async (name) => {
      const definition = JSON.parse(readFileSync(new URL(`./openapi/${name}.json`, import.meta.url), "utf8")) as Document;
      // `quick` skips validating the documents themselves: PayPal's use `$ref` beside other keys,
      // which OpenAPI 3.0 forbids but every tool (and ajv here) resolves the same way.
      // PayPal's patterns are written for JavaScript without the `u` flag (its e-mail pattern is
      // not valid with it); its own formats such as `ppaas_payment_currency_v2` are not checked.
      const backend = new OpenAPIBackend({ definition, quick: true, validate: true, ajvOpts: { strict: false, allErrors: true, unicodeRegExp: false, logger: false } });
      await backend.init();
      return backend;
    }),
  );
}

export interface ConformanceProblem {
  exchange: string;
  problem: string;
}

function describe(request: RecordedRequest, status?: number): string {
  return `${request.method} ${request.path}${status === undefined ? "" : ` -> ${status}`}`;
}

/** What in these exchanges breaks PayPal's documents; empty when all conform. */
export async function conformanceProblems(exchanges: readonly RecordedExchange[]): Promise<ConformanceProblem[]> {
  backends ??= loadBackends();
  const loaded = await backends;
  const problems: ConformanceProblem[] = [];
  for (const { request, status, body } of exchanges) {
    if (outsideTheDocuments.includes(request.path)) continue;
    const call = { method: request.method.toLowerCase(), path: request.path, headers: request.headers, query: request.query, body: request.body ?? undefined };
    const match = loaded.map((backend) => ({ backend, operation: backend.matchOperation(call) })).find((candidate) => candidate.operation);
    if (!match?.operation) {
      problems.push({ exchange: describe(request), problem: "no operation of PayPal's documents has this path and method" });
      continue;
    }
    const { backend, operation } = match;
    const requestCheck = backend.validateRequest(call, operation);
    for (const error of requestCheck.errors ?? []) problems.push({ exchange: describe(request), problem: `request ${error.instancePath} ${error.message ?? ""} ${JSON.stringify(error.params)}` });
    if (!operation.responses?.[String(status)] && !operation.responses?.default) {
      problems.push({ exchange: describe(request, status), problem: `the operation documents no ${status} answer` });
      continue;
    }
    const responseCheck = backend.validateResponse(body, operation, status);
    for (const error of responseCheck.errors ?? []) problems.push({ exchange: describe(request, status), problem: `response ${error.instancePath} ${error.message ?? ""} ${JSON.stringify(error.params)}` });
  }
  return problems;
}
