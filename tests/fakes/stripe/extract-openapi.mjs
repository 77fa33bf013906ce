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
 * and so on): names the package lacks are dropped, names the document lacks are added with the
 * schema of their declared type (read with the TypeScript compiler: objects closed to the names
 * they declare, string unions as enums) and listed in the operation's `x-parameters-from-sdk`, so
 * an unknown name inside them is refused as Stripe refuses it.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

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

/**
 * The JSON schema of a declared parameter type of the package. `OtherString` (`string & {}`), which
 * the package adds to every list of values so that code keeps compiling against newer versions, is
 * left out: the values listed are those of the pinned API version. `Emptyable<T>` (`'' | null | T`)
 * keeps `''`, Stripe's way to unset a value in a form; `null` cannot be sent in a form.
 */
function schemaOfType(checker, type, depth = 0) {
  if (depth > 16) return {};
  const flags = type.flags;
  if (type.isUnion()) {
    const members = type.types.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) && !isOtherString(member));
    const literals = members.filter((member) => member.isStringLiteral());
    const hasBoolean = members.some((member) => member.flags & ts.TypeFlags.BooleanLiteral);
    const others = members.filter((member) => !member.isStringLiteral() && !(member.flags & ts.TypeFlags.BooleanLiteral));
    const options = [
      ...(literals.length > 0 ? [{ type: "string", enum: literals.map((literal) => literal.value) }] : []),
      ...(hasBoolean ? [{ type: "boolean" }] : []),
      ...others.map((member) => schemaOfType(checker, member, depth + 1)),
    ];
    if (options.length === 0) return { type: "string" };
    return options.length === 1 ? options[0] : { anyOf: options };
  }
  if (isOtherString(type) || flags & ts.TypeFlags.String) return { type: "string" };
  if (type.isStringLiteral()) return { type: "string", enum: [type.value] };
  if (flags & ts.TypeFlags.Number) return { type: "number" };
  if (flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral)) return { type: "boolean" };
  if (checker.isArrayType(type)) return { type: "array", items: schemaOfType(checker, checker.getTypeArguments(type)[0], depth + 1) };
  if (flags & ts.TypeFlags.Object) {
    const properties = checker.getPropertiesOfType(type);
    const [index] = checker.getIndexInfosOfType(type);
    if (properties.length === 0 && index) return { type: "object", additionalProperties: schemaOfType(checker, index.type, depth + 1) };
    const required = properties.filter((property) => !(property.flags & ts.SymbolFlags.Optional)).map((property) => property.name);
    return {
      type: "object",
      properties: Object.fromEntries(properties.map((property) => [property.name, schemaOfType(checker, checker.getTypeOfSymbol(property), depth + 1)])),
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    };
  }
  return {};
}

function isOtherString(type) {
  return type.isIntersection() && type.types.some((member) => member.flags & ts.TypeFlags.String);
}

/** The schemas of the top-level parameters of an exported interface in one of the package's declaration files. */
function sdkParameterSchemas(sdkFolder, file, name) {
  const path = join(sdkFolder, "cjs", "resources", file);
  const program = ts.createProgram([path], { strict: true, noEmit: true, skipLibCheck: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path);
  const declaration = source?.statements.find((statement) => ts.isInterfaceDeclaration(statement) && statement.name.text === name);
  if (!declaration) throw new Error(`${file} has no interface ${name}`);
  const type = checker.getTypeAtLocation(declaration);
  return new Map(checker.getPropertiesOfType(type).map((property) => [property.name, schemaOfType(checker, checker.getTypeOfSymbol(property))]));
}

/** A request body's names made those of the package's API version. */
function alignBody(operation, names, sdkSchemas) {
  const media = operation.requestBody?.content?.["application/x-www-form-urlencoded"];
  if (!media?.schema?.properties) return operation;
  const properties = Object.fromEntries(Object.entries(media.schema.properties).filter(([name]) => names.has(name)));
  const added = [...names].filter((name) => !(name in properties)).sort();
  for (const name of added) properties[name] = sdkSchemas.get(name) ?? {};
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
    paths[path][method] = slim(file ? alignBody(operation, sdkParameterNames(sdkFolder, file, typeName), sdkParameterSchemas(sdkFolder, file, typeName)) : operation, frontier);
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
        `they reference, to ${maxDepth} references deep; deeper references are {} (any value), and so are the objects of expandable fields the store does not expand (all but ${[...expandedByStore].join(", ")}); descriptions of schemas are dropped. Request parameters of the package's API version that the document lacks (x-parameters-from-sdk) are typed from the package's TypeScript declarations, closed to the names they declare.`,
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
