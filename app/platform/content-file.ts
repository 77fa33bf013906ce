import type { z } from "zod";

/** "content/catalog/products.json: products.0.bundles.1.units: must be at least 1" */
export function describeIssues(file: string, error: z.ZodError): string {
  return error.issues.map((issue) => `${file}: ${issue.path.join(".") || "(file)"}: ${issue.message}`).join("\n");
}

export function parseContent<T>(file: string, schema: z.ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data);
  if (!result.success) throw new Error(`Invalid content\n${describeIssues(file, result.error)}`);
  return result.data;
}
