import { defaultLocale } from "./markets";

/**
 * Texts kept as one JSON file per locale, checked against the British English file: every locale
 * has the same keys, lists of the same length and no empty string. A mismatch fails the build
 * naming the file and the key.
 */
export function shapeProblems(reference: unknown, candidate: unknown, path: string): string[] {
  if (typeof reference === "string") {
    return typeof candidate === "string" && candidate.trim() !== "" ? [] : [`${path}: must be a text that is not empty`];
  }
  if (Array.isArray(reference)) {
    if (!Array.isArray(candidate) || candidate.length !== reference.length) return [`${path}: must be a list of ${reference.length} texts`];
    return reference.flatMap((item, index) => shapeProblems(item, candidate[index], `${path}.${index}`));
  }
  if (typeof reference === "object" && reference !== null) {
    if (typeof candidate !== "object" || candidate === null || Array.isArray(candidate)) return [`${path}: must be an object`];
    const extra = Object.keys(candidate).filter((key) => !(key in reference)).map((key) => `${path}.${key}: not a known key`);
    return [...extra, ...Object.entries(reference).flatMap(([key, value]) => shapeProblems(value, (candidate as Record<string, unknown>)[key], `${path}.${key}`))];
  }
  return [];
}

/** Checks a folder's locale files against `en_GB` and returns them by locale. */
export function loadLocaleFiles<T>(folder: string, files: Record<string, unknown>, reference: T): Map<string, T> {
  const byLocale = new Map<string, T>();
  const problems: string[] = [];
  for (const [path, data] of Object.entries(files)) {
    const locale = path.replace(/^.*\/(\w+)\.json$/, "$1");
    problems.push(...shapeProblems(reference, data, `${folder}/${locale}.json`).map((problem) => problem.replace(".json.", ".json: ")));
    byLocale.set(locale, data as T);
  }
  if (!byLocale.has(defaultLocale)) problems.push(`${folder}/${defaultLocale}.json: missing`);
  if (problems.length > 0) throw new Error(`Invalid content\n${problems.join("\n")}`);
  return byLocale;
}
