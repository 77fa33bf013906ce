#!/usr/bin/env node
/**
 * Cuts the part of Stripe's OpenAPI document (github stripe/openapi, openapi/spec3.json) that the
 * store and its fake use into openapi-subset.json beside this file:
 *
 *   node tests/fakes/stripe/extract-openapi.mjs <spec3.json> <stripe package folder> [source commit] [how it was obtained]
 *
 * The operations are copied as they are; the component schemas they reference follow, $ref by
 * $ref, down to `maxDepth` references from an operation. Deeper references become `{}` (any
 * value), descriptions and `x-expansionResources` are dropped: the file stays small and still
 * holds every request parameter (request bodies are inline in Stripe's document) and the objects
 * the store reads. Expandable fields (an id, or the object) keep the object only where the store
 * expands them (`latest_charge`); elsewhere the object branch becomes `{}`.
 *
 * The store talks to Stripe through the `stripe` package, which pins an API version and is
 * generated from spec3.json of that version. When the document read is of another version, each
 * request body's parameter names follow the package's own parameter types (`PaymentIntentCreateParams`
 * and so on): names the package lacks are dropped, names the document lacks are added as `{}`
 * (any value) and listed in the operation's `x-parameters-from-sdk`.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The operations, and for those with a body the `stripe` package's type of their parameters. */
export const operations = [
  ["post", "/v1/customers", "Customers.d.ts", "CustomerCreateParams"],
  ["post", "/v1/payment_intents", "PaymentIntents.d.ts", "PaymentIntentCreateParams"],
  ["get", "/v1/payment_intents/{intent}"],
  ["post", "/v1/payment_intents/{intent}/confirm", "PaymentIntents.d.ts", "PaymentIntentConfirmParams"],
  ["post", "/v1/payment_intents/{intent}/cancel", "PaymentIntents.d.ts", "PaymentIntentCancelParams"],
  ["post", "/v1/refunds", "Refunds.d.ts", "RefundCreateParams"],
  ["get", "/v1/refunds/{refund}"],
  ["get", "/v1/webhook_endpoints"],
  ["get", "/v1/payment_method_configurations"],
];

/** The top-level property names of an exported interface in one of the package's declaration files. */
function sdkParameterNames(sdkFolder, file, name) {
  const text = readFileSync(join(sdkFolder, "cjs", "resources", file), "utf8");
  const start = text.indexOf(`export interface ${name} `);
  if (start === -1) throw new Error(`${file} has no interface ${name}`);
  const end = text.indexOf("\n}\n", start);
  return new Set(Array.from(text.slice(start, end).matchAll(/^ {4}([a-z_0-9]+)\??:/gm), (match) => match[1]));
}

/** A request body's names made those of the package's API version. */
function alignBody(operation, names) {
  const media = operation.requestBody?.content?.["application/x-www-form-urlencoded"];
  if (!media?.schema?.properties) return operation;
  const properties = Object.fromEntries(Object.entries(media.schema.properties).filter(([name]) => names.has(name)));
  const added = [...names].filter((name) => !(name in properties)).sort();
  for (const name of added) properties[name] = {};
  const encoding = media.encoding ? Object.fromEntries(Object.entries(media.encoding).filter(([name]) => names.has(name))) : undefined;
  return {
    ...operation,
    ...(added.length > 0 ? { "x-parameters-from-sdk": added } : {}),
    requestBody: { ...operation.requestBody, content: { "application/x-www-form-urlencoded": { ...media, ...(encoding ? { encoding } : {}), schema: { ...media.schema, properties } } } },
  };
}

/** PaymentIntent -> next_action -> redirect_to_url, and PaymentIntent -> latest_charge -> payment_method_details -> bancontact. */
const maxDepth = 4;

const refPrefix = "#/components/schemas/";

/** Expandable fields the store asks Stripe to expand; every other one arrives as an id. */
const expandedByStore = new Set(["latest_charge"]);

/** An expandable field (an id, or the object when expanded) keeps its object schema only if the store expands it. */
function unexpanded(name, schema) {
  if (expandedByStore.has(name) || !schema || typeof schema !== "object" || !schema["x-expansionResources"] || !Array.isArray(schema.anyOf)) return schema;
  return { ...schema, anyOf: schema.anyOf.map((branch) => (branch.$ref ? {} : branch)) };
}

function slim(node, seen) {
  if (Array.isArray(node)) return node.map((item) => slim(item, seen));
  if (!node || typeof node !== "object") return node;
  const copy = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "properties" && value && typeof value === "object" && !Array.isArray(value)) {
      copy.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, slim(unexpanded(name, schema), seen)]));
      continue;
    }
    // Responses must keep theirs (OpenAPI requires it); schemas and parameters do without.
    if (key === "description" && typeof value === "string" && !("content" in node || "headers" in node)) continue;
    if (key === "x-expansionResources") continue;
    if (key === "$ref" && typeof value === "string") seen.add(value.slice(refPrefix.length));
    copy[key] = slim(value, seen);
  }
  return copy;
}

/** Replaces references to schemas outside `kept` by `{}`. */
function cut(node, kept) {
  if (Array.isArray(node)) return node.map((item) => cut(item, kept));
  if (!node || typeof node !== "object") return node;
  if (typeof node.$ref === "string" && !kept.has(node.$ref.slice(refPrefix.length))) return {};
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, cut(value, kept)]));
}

export function extract(spec, source, sdkFolder) {
  const paths = {};
  let frontier = new Set();
  for (const [method, path, file, typeName] of operations) {
    const operation = spec.paths[path]?.[method];
    if (!operation) throw new Error(`spec3.json has no ${method.toUpperCase()} ${path}`);
    paths[path] ??= {};
    paths[path][method] = slim(file ? alignBody(operation, sdkParameterNames(sdkFolder, file, typeName)) : operation, frontier);
  }
  const kept = new Map();
  for (let depth = 1; depth <= maxDepth && frontier.size > 0; depth += 1) {
    const next = new Set();
    for (const name of frontier) {
      if (kept.has(name)) continue;
      const schema = spec.components.schemas[name];
      if (!schema) throw new Error(`spec3.json has no schema ${name}`);
      kept.set(name, slim(schema, next));
    }
    frontier = next;
  }
  const names = new Set(kept.keys());
  const schemas = Object.fromEntries([...kept.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, schema]) => [name, cut(schema, names)]));
  return {
    openapi: spec.openapi,
    info: {
      title: "Stripe API: the subset this store uses",
      version: spec.info.version,
      description:
        `Cut from Stripe's OpenAPI document by tests/fakes/stripe/extract-openapi.mjs: the operations the store calls and the schemas ` +
        `they reference, to ${maxDepth} references deep; deeper references are {} (any value), and so are the objects of expandable fields the store does not expand (all but ${[...expandedByStore].join(", ")}); descriptions of schemas are dropped.`,
      "x-source": { repository: "stripe/openapi", file: "openapi/spec3.json", apiVersion: spec.info.version, ...source },
      "x-request-parameters": {
        package: "stripe",
        version: readFileSync(join(sdkFolder, "VERSION"), "utf8").trim(),
        apiVersion: /ApiVersion = '([^']+)'/.exec(readFileSync(join(sdkFolder, "cjs", "apiVersion.js"), "utf8"))?.[1] ?? "unknown",
        note: "request bodies carry the parameter names of this package's types (see x-parameters-from-sdk per operation)",
      },
    },
    servers: spec.servers,
    paths: cut(paths, names),
    components: { schemas },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [specPath, sdkFolder, commit, obtainedFrom] = process.argv.slice(2);
  if (!specPath || !sdkFolder) {
    console.error("usage: node extract-openapi.mjs <spec3.json> <stripe package folder> [commit] [how it was obtained]");
    process.exit(2);
  }
  const text = readFileSync(specPath, "utf8");
  const source = {
    commit: commit || "unknown",
    // git's blob id of the file read, so a copy can be matched to the repository's history.
    gitBlobSha1: createHash("sha1").update(`blob ${Buffer.byteLength(text)}\0`).update(text).digest("hex"),
    ...(obtainedFrom ? { obtainedFrom } : {}),
  };
  const subset = extract(JSON.parse(text), source, sdkFolder);
  const target = join(dirname(fileURLToPath(import.meta.url)), "openapi-subset.json");
  writeFileSync(target, `${JSON.stringify(subset, null, 1)}\n`);
  console.log(`${target}: ${Object.keys(subset.components.schemas).length} schemas, API version ${subset.info.version}`);
}
