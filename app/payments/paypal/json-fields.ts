/** Small readers for JSON answers of unknown shape: each returns undefined instead of throwing. */

export type JsonObject = Readonly<Record<string, unknown>>;

export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined;
}

/** The value at a path of object keys and array indexes: `at(order, "purchase_units", 0, "amount")`. */
export function at(value: unknown, ...path: readonly (string | number)[]): unknown {
  let current: unknown = value;
  for (const key of path) {
    if (typeof key === "number") current = Array.isArray(current) ? (current as unknown[])[key] : undefined;
    else current = asObject(current)?.[key];
    if (current === undefined) return undefined;
  }
  return current;
}

export function textAt(value: unknown, ...path: readonly (string | number)[]): string | undefined {
  const found = at(value, ...path);
  return typeof found === "string" ? found : undefined;
}

export function listAt(value: unknown, ...path: readonly (string | number)[]): readonly unknown[] {
  const found = at(value, ...path);
  return Array.isArray(found) ? (found as unknown[]) : [];
}

/** Parses JSON text, or gives undefined for anything that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
