#!/usr/bin/env node
/**
 * Cuts the part of Stripe's OpenAPI document (github stripe/openapi) that the store and its fake
 * use into openapi-subset.json beside this file:
 *
 *   node tests/fakes/stripe/extract-openapi.mjs <spec3.yaml or spec3.json> <its commit> <newer copy of spec3.json> <stripe package folder> [how the copy was obtained]
 *
 * The first document is the base: Stripe's own, from the repository at a named commit (YAML or
 * JSON). Every operation, parameter and component schema comes from it where it has them. What the
 * base lacks and the store uses (an operation, a request parameter at any depth, a value of a
 * parameter's list, a component schema, a field of an answer the store reads) is taken from the
 * newer copy, and each such supplement is named in `info.x-source.supplements`, so the file says
 * which words are not the base's. A name neither the documents nor the package knows is refused.
 *
 * The operations are copied as they are; the component schemas they reference follow, $ref by
 * $ref, down to `maxDepth` references from an operation. Deeper references become `{}` (any
 * value), descriptions and `x-expansionResources` are dropped: the file stays small and still
 * holds every request parameter (request bodies are inline in Stripe's document) and the objects
 * the store reads. Expandable fields (an id, or the object) keep the object only where the store
 * expands them (`latest_charge`); elsewhere the object branch becomes `{}`.
 *
 * The store talks to Stripe through the `stripe` package, which pins an API version and is
 * generated from spec3.json of that version. When the documents read are of another version, each
 * request body's parameter names follow the package's own parameter types (`PaymentIntentCreateParams`
 * and so on): names the package lacks are dropped, names neither document has are added with the
 * schema of their declared type (read with the TypeScript compiler: objects closed to the names
 * they declare, string unions as enums) and listed in the operation's `x-parameters-from-sdk`, so
 * an unknown name inside them is refused as Stripe refuses it.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as yaml from "js-yaml";
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

/**
 * A request schema of the base with what only the newer copy has added: properties (at any depth),
 * values of lists (`enum`) and further forms (`anyOf`). The base's words win wherever both speak;
 * each addition is told to `note` with its parameter named as Stripe names it
 * (`payment_method_data[type] = swish`).
 */
function withAdditions(base, newer, name, note) {
  if (!isObject(base) || !isObject(newer)) return base;
  const copy = { ...base };
  if (Array.isArray(base.enum) && Array.isArray(newer.enum)) {
    const added = newer.enum.filter((value) => !base.enum.includes(value));
    for (const value of added) note(`${name} = ${value}`);
    if (added.length > 0) copy.enum = [...base.enum, ...added];
  }
  if (isObject(base.properties) && isObject(newer.properties)) {
    copy.properties = { ...base.properties };
    for (const [key, schema] of Object.entries(newer.properties)) {
      const child = name ? `${name}[${key}]` : key;
      if (key in base.properties) copy.properties[key] = withAdditions(base.properties[key], schema, child, note);
      else {
        copy.properties[key] = schema;
        note(child);
      }
    }
  }
  for (const key of ["anyOf", "oneOf"]) {
    if (!Array.isArray(base[key]) || !Array.isArray(newer[key])) continue;
    copy[key] = base[key].map((branch, index) => withAdditions(branch, newer[key][index], name, note));
    for (const branch of newer[key].slice(base[key].length)) {
      copy[key].push(branch);
      note(`${name} (another form)`);
    }
  }
  if (base.items && newer.items) copy.items = withAdditions(base.items, newer.items, `${name}[]`, note);
  return copy;
}

function isObject(value) {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}

/**
 * The base's operation with the parameters only the newer copy has: query and path parameters by
 * name, request body properties (of the names the package knows, `sdkNames`) at any depth.
 */
function operationWithAdditions(base, newer, label, sdkNames, note) {
  const named = (what) => note(`${label}: ${what}`);
  const parameters = [...(base.parameters ?? [])];
  for (const parameter of newer.parameters ?? []) {
    if (parameters.some((known) => known.name === parameter.name && known.in === parameter.in)) continue;
    parameters.push(parameter);
    named(parameter.name);
  }
  const withParameters = { ...base, ...(parameters.length > 0 ? { parameters } : {}) };
  const media = base.requestBody?.content?.["application/x-www-form-urlencoded"];
  const newerMedia = newer.requestBody?.content?.["application/x-www-form-urlencoded"];
  if (!media?.schema || !newerMedia?.schema) return withParameters;
  const known = { ...newerMedia.schema, properties: Object.fromEntries(Object.entries(newerMedia.schema.properties ?? {}).filter(([key]) => sdkNames.has(key))) };
  const schema = withAdditions(media.schema, known, "", named);
  const encoding = { ...(newerMedia.encoding ?? {}), ...(media.encoding ?? {}) };
  return {
    ...withParameters,
    requestBody: { ...base.requestBody, content: { "application/x-www-form-urlencoded": { ...media, ...(Object.keys(encoding).length > 0 ? { encoding } : {}), schema } } },
  };
}

/**
 * Fields of Stripe's answers the store reads, by schema: where the base lacks one (a method newer
 * than its API version), it comes from the newer copy, so the fake's answer is still checked.
 */
const answerFieldsReadByStore = {
  payment_intent_next_action: ["redirect_to_url", "swish_handle_redirect_or_display_qr_code"],
  payment_method_details: ["bancontact", "ideal"],
};

/** A component schema of the base with the fields the store reads that only the newer copy has. */
function withFieldsReadByStore(name, schema, newer, note) {
  const missing = (answerFieldsReadByStore[name] ?? []).filter((field) => !schema.properties?.[field] && newer?.properties?.[field]);
  if (missing.length === 0) return schema;
  for (const field of missing) note(`/components/schemas/${name}/properties/${field}`);
  return { ...schema, properties: { ...schema.properties, ...Object.fromEntries(missing.map((field) => [field, newer.properties[field]])) } };
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

/**
 * The subset: `base` is Stripe's own document of one commit, `newer` a newer copy that supplies
 * only what the base lacks; `source` says where each comes from.
 */
export function extract(base, newer, source, sdkFolder) {
  const supplements = [];
  const note = (what) => {
    if (!supplements.includes(what)) supplements.push(what);
  };
  const paths = {};
  let frontier = new Set();
  for (const [method, path, file, typeName] of operations) {
    const label = `${method.toUpperCase()} ${path}`;
    const sdkNames = file ? sdkParameterNames(sdkFolder, file, typeName) : new Set();
    const own = base.paths[path]?.[method];
    const newerOperation = newer.paths[path]?.[method];
    if (!own && !newerOperation) throw new Error(`neither document has ${label}`);
    if (!own) note(label);
    const operation = own ? (newerOperation ? operationWithAdditions(own, newerOperation, label, sdkNames, note) : own) : newerOperation;
    paths[path] ??= {};
    paths[path][method] = slim(file ? alignBody(operation, sdkNames, sdkParameterSchemas(sdkFolder, file, typeName)) : operation, frontier);
  }
  const kept = new Map();
  for (let depth = 1; depth <= maxDepth && frontier.size > 0; depth += 1) {
    const next = new Set();
    for (const name of frontier) {
      if (kept.has(name)) continue;
      const own = base.components.schemas[name];
      const newerSchema = newer.components.schemas[name];
      if (!own && !newerSchema) throw new Error(`neither document has the schema ${name}`);
      if (!own) note(`/components/schemas/${name}`);
      kept.set(name, slim(own ? withFieldsReadByStore(name, own, newerSchema, note) : newerSchema, next));
    }
    frontier = next;
  }
  const names = new Set(kept.keys());
  const schemas = Object.fromEntries([...kept.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, schema]) => [name, cut(schema, names)]));
  return {
    openapi: base.openapi,
    info: {
      title: "Stripe API: the subset this store uses",
      version: base.info.version,
      description:
        `Cut from Stripe's own OpenAPI document of API version ${base.info.version} (x-source) by tests/fakes/stripe/extract-openapi.mjs: the operations the store calls and the schemas ` +
        `they reference, to ${maxDepth} references deep; deeper references are {} (any value), and so are the objects of expandable fields the store does not expand (all but ${[...expandedByStore].join(", ")}); descriptions of schemas are dropped. ` +
        `What that document lacks and the store uses is taken from a copy of API version ${newer.info.version} (x-source.supplementFrom), each piece named in x-source.supplements. ` +
        `Request parameters of the package's API version that neither document has (x-parameters-from-sdk) are typed from the package's TypeScript declarations, closed to the names they declare.`,
      "x-source": {
        repository: "stripe/openapi",
        path: source.path,
        commit: source.commit,
        apiVersion: base.info.version,
        gitBlobSha1: source.gitBlobSha1,
        supplementFrom: { apiVersion: newer.info.version, ...source.supplementFrom },
        supplements,
      },
      "x-request-parameters": {
        package: "stripe",
        version: readFileSync(join(sdkFolder, "VERSION"), "utf8").trim(),
        apiVersion: /ApiVersion = '([^']+)'/.exec(readFileSync(join(sdkFolder, "cjs", "apiVersion.js"), "utf8"))?.[1] ?? "unknown",
        note: "request bodies carry the parameter names of this package's types (see x-parameters-from-sdk per operation)",
      },
    },
    servers: base.servers,
    paths: cut(paths, names),
    components: { schemas },
  };
}

/** git's blob id of a file's text, so a copy can be matched to a repository's history. */
function gitBlobSha1(text) {
  return createHash("sha1").update(`blob ${Buffer.byteLength(text)}\0`).update(text).digest("hex");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [basePath, commit, newerPath, sdkFolder, obtainedFrom] = process.argv.slice(2);
  if (!basePath || !/^[0-9a-f]{40}$/.test(commit ?? "") || !newerPath || !sdkFolder) {
    console.error("usage: node extract-openapi.mjs <spec3.yaml or spec3.json> <its commit> <newer copy of spec3.json> <stripe package folder> [how the copy was obtained]");
    process.exit(2);
  }
  const baseText = readFileSync(basePath, "utf8");
  const newerText = readFileSync(newerPath, "utf8");
  const isYaml = /\.ya?ml$/.test(basePath);
  const source = {
    path: isYaml ? "openapi/spec3.yaml" : "openapi/spec3.json",
    commit,
    gitBlobSha1: gitBlobSha1(baseText),
    supplementFrom: {
      file: "openapi/spec3.json",
      commit: "unknown",
      gitBlobSha1: gitBlobSha1(newerText),
      ...(obtainedFrom ? { obtainedFrom } : {}),
    },
  };
  const subset = extract(isYaml ? yaml.load(baseText) : JSON.parse(baseText), JSON.parse(newerText), source, sdkFolder);
  const target = join(dirname(fileURLToPath(import.meta.url)), "openapi-subset.json");
  writeFileSync(target, `${JSON.stringify(subset, null, 1)}\n`);
  console.log(`${target}: ${Object.keys(subset.components.schemas).length} schemas, API version ${subset.info.version}, ${subset.info["x-source"].supplements.length} supplements`);
}
