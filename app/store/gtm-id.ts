const gtmIdPattern = /^GTM-[0-9A-Z]+$/;

/**
 * The tag manager id must match `/^GTM-[0-9A-Z]+$/` (docs/architecture.md, 'Rules every page keeps'). The suggestion
 * is the id upper-cased, without everything up to its last `-` and without other characters.
 */
export function gtmIdProblem(id: string): string | null {
  if (gtmIdPattern.test(id)) return null;
  const upper = id.toUpperCase();
  const suggestion = upper.slice(upper.lastIndexOf("-") + 1).replace(/[^0-9A-Z]/g, "");
  const hint = suggestion ? ` Did you mean 'GTM-${suggestion}'?` : "";
  return `'${id}' is not a valid GTM-ID (${gtmIdPattern}).${hint}`;
}

/** `GTM_ID` from the environment: null when unset (no tag manager at all), else a valid id. */
export function readGtmId(env: Record<string, string | undefined>): string | null {
  const id = env.GTM_ID;
  if (id === undefined || id === "") return null;
  const problem = gtmIdProblem(id);
  if (problem) throw new Error(problem);
  return id;
}
