import { readFileSync } from "node:fs";
import { OpenAPIBackend, type Document } from "openapi-backend";

/**
 * TEST SUPPORT ONLY: Stripe's own OpenAPI document (the subset in openapi-subset.json, cut from
 * github stripe/openapi at the commit its `info.x-source` names, by extract-openapi.mjs, with the
 * pieces that version lacks taken from a newer copy and listed in `x-source.supplements`) as a
 * validator, through openapi-backend. The fake refuses requests with it and the conformance test
 * checks every recorded exchange with it, so what counts as a known parameter or a well-formed
 * object is Stripe's word, not ours.
 */

/** A form body as Stripe reads it: `metadata[order_number]=x` becomes `{ metadata: { order_number: "x" } }`. */
export type FormValue = string | FormObject;
export interface FormObject {
  [key: string]: FormValue;
}

export interface SchemaProblem {
  /** Stripe's way to name a parameter: `payment_method_data[type]`. */
  param: string;
  /** `parameter_unknown` for a name the schema does not list, else `parameter_invalid`. */
  code: "parameter_unknown" | "parameter_invalid";
  message: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Stripe sends lists as `a[0]=x&a[1]=y`: an object whose keys are 0..n-1 becomes a list. */
export function formToJson(value: FormValue): Json {
  if (typeof value === "string") return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => [key, formToJson(value[key] as FormValue)] as const);
  if (keys.length > 0 && keys.every((key, index) => key === String(index))) return entries.map(([, item]) => item);
  return Object.fromEntries(entries);
}

/**
 * Stripe writes "may be null" as `nullable` beside an `anyOf` without `type`, which Ajv does not
 * take: such a schema becomes `anyOf: [..., { enum: [null] }]`, meaning the same. A nullable
 * `enum` gets `null` among its values, which OpenAPI 3.0 implies and Ajv does not.
 */
function nullableForAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableForAjv);
  if (!node || typeof node !== "object") return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const copy = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, nullableForAjv(value)]));
  if (nullable !== true) return copy;
  if ("type" in copy) return Array.isArray(copy.enum) ? { ...copy, nullable, enum: [...copy.enum, null] } : { ...copy, nullable };
  if (Array.isArray(copy.anyOf)) return { ...copy, anyOf: [...copy.anyOf, { enum: [null] }] };
  return { anyOf: [copy, { enum: [null] }] };
}

/**
 * Stripe's document closes only the top level of a request body (`additionalProperties: false`),
 * but its API refuses unknown nested names as well (`payment_method_data[foo]` is a
 * `parameter_unknown`): objects in request bodies that list their properties are closed here.
 */
function closeNestedParams(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closeNestedParams);
  if (!node || typeof node !== "object") return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, closeNestedParams(value)]));
  if (copy.properties && typeof copy.properties === "object" && copy.additionalProperties === undefined) copy.additionalProperties = false;
  return copy;
}

/**
 * The one addition to Stripe's words: the checked-in document is of API version 2023-08-16 with
 * pieces of 2024-04-10, both before TWINT became a PaymentMethod type (docs.stripe.com/payments/twint);
 * where a request names method types (an enum holding `swish`), `twint` is one of them too.
 */
function withTwint(node: unknown): unknown {
  if (Array.isArray(node)) return node.includes("swish") && !node.includes("twint") ? [...node, "twint"] : node.map(withTwint);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withTwint(value)]));
}

function forValidation(document: Document): Document {
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    paths[path] = Object.fromEntries(
      Object.entries(item ?? {}).map(([method, operation]) => {
        const { requestBody, ...rest } = operation as Record<string, unknown>;
        return [method, requestBody === undefined ? rest : { ...rest, requestBody: withTwint(closeNestedParams(requestBody)) }];
      }),
    );
  }
  return nullableForAjv({ ...document, paths }) as Document;
}

/** Stripe's own formats, not JSON Schema's: accepted as any value of their type. */
const stripeFormats = ["unix-time", "decimal", "binary"];

export function loadSubset(): Document {
  return JSON.parse(readFileSync(new URL("./openapi-subset.json", import.meta.url), "utf8")) as Document;
}

let backend: OpenAPIBackend | null = null;

/** Throws unless the checked-in subset, as it is, is a valid OpenAPI document. */
export function checkSubsetIsOpenApi(): void {
  const document = loadSubset();
  const api = new OpenAPIBackend({ definition: document, quick: true, validate: false });
  api.document = document;
  api.validateDefinition();
}

/** The validator, built once per process; each operation's schemas are compiled when first used. */
export async function loadStripeSchema(): Promise<void> {
  if (backend) return;
  const next = new OpenAPIBackend({
    definition: forValidation(loadSubset()),
    quick: true,
    validate: true,
    // Form values are all text on the wire: request bodies and parameters are coerced to the
    // schema's types (as Stripe reads them), responses are JSON and must match as they are.
    customizeAjv: (ajv, options, context) => {
      const AjvOfBackend = ajv.constructor as new (opts: typeof options) => typeof ajv;
      const coerce = context === "requestBodyValidator" || context === "paramsValidator";
      const made = new AjvOfBackend({ ...options, strict: false, allErrors: true, coerceTypes: coerce ? "array" : false });
      for (const format of stripeFormats) made.addFormat(format, true);
      return made;
    },
  });
  await next.init();
  backend = next;
}

function schema(): OpenAPIBackend {
  if (!backend) throw new Error("Stripe's schema is not loaded: await loadStripeSchema() first");
  return backend;
}

function paramName(instancePath: string, extra?: string): string {
  const segments = instancePath.split("/").filter(Boolean);
  // Drop the validator's own wrapper (`requestBody`, `query`).
  if (segments[0] === "requestBody" || segments[0] === "query" || segments[0] === "path") segments.shift();
  if (extra) segments.push(extra);
  const [first = "", ...rest] = segments;
  return first + rest.map((segment) => `[${segment}]`).join("");
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function problemsOf(errors: readonly AjvIssue[] | null | undefined): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  for (const error of errors ?? []) {
    if (error.keyword === "additionalProperties") {
      const param = paramName(error.instancePath, String(error.params.additionalProperty));
      problems.push({ param, code: "parameter_unknown", message: `Received unknown parameter: ${param}` });
    } else {
      const param = paramName(error.instancePath);
      problems.push({ param, code: "parameter_invalid", message: `Invalid ${param || "request"}: ${error.message ?? error.keyword}` });
    }
  }
  // A name unknown in every branch of an anyOf is reported once per branch: keep the unknown ones first.
  return problems.sort((a, b) => (a.code === b.code ? 0 : a.code === "parameter_unknown" ? -1 : 1));
}

/** Whether the subset describes this operation (the fake answers others with 404 of its own). */
export function describedOperation(method: string, path: string): boolean {
  return schema().router.matchOperation({ method, path, headers: {} }) !== undefined;
}

/** What Stripe's schema says is wrong with a request's parameters; empty when it conforms. */
export function requestProblems(method: string, path: string, params: FormObject): SchemaProblem[] {
  const api = schema();
  const operation = api.router.matchOperation({ method, path, headers: {} });
  if (!operation) return [{ param: "", code: "parameter_invalid", message: `${method} ${path} is not in Stripe's document` }];
  const json = formToJson(params);
  const isBodyless = method.toUpperCase() === "GET";
  const result = api.validator.validateRequest(
    {
      method,
      path,
      headers: isBodyless ? {} : { "content-type": "application/x-www-form-urlencoded" },
      ...(isBodyless ? { query: json as Record<string, string | string[]> } : { body: json ?? {} }),
    },
    operation,
  );
  if (isBodyless) {
    // openapi-backend lets unlisted query parameters through; Stripe does not.
    const listed = new Set((operation.parameters ?? []).map((parameter) => ("name" in parameter ? parameter.name : "")));
    const unknown = Object.keys(params)
      .filter((name) => !listed.has(name))
      .map((param): SchemaProblem => ({ param, code: "parameter_unknown", message: `Received unknown parameter: ${param}` }));
    return [...unknown, ...problemsOf(result.errors as AjvIssue[] | null)];
  }
  return problemsOf(result.errors as AjvIssue[] | null);
}

/** What Stripe's schema says is wrong with an answer of the fake; empty when it conforms. */
export function responseProblems(method: string, path: string, status: number, body: unknown): string[] {
  const api = schema();
  const operation = api.router.matchOperation({ method, path, headers: {} });
  if (!operation) return [`${method} ${path} is not in Stripe's document`];
  const result = api.validator.validateResponse(body, operation, status);
  return ((result.errors ?? []) as AjvIssue[]).map((error) => `${error.instancePath || "/"} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`);
}
