import { z } from "zod";

/**
 * One environment variable read by `read`, which throws a message naming it for a bad value: the
 * message becomes the schema's issue for that variable.
 */
export function variable<T>(read: (value: string | undefined) => T) {
  return z
    .string()
    .optional()
    .transform((value, context): T => {
      try {
        return read(value);
      } catch (error) {
        context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
        return z.NEVER;
      }
    });
}

/** Every problem of a failed parse, one message per line, each naming its variable. */
export function settingsProblems(error: z.ZodError): string {
  return [...new Set(error.issues.map((issue) => issue.message))].join("\n");
}
