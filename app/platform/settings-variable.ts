import { variable } from "../../server/settings-variable";

/**
 * The settings schema's building blocks, shared with the HTTP server (which is compiled on its own
 * and reads its part of the schema before it loads the app): docs/decisions/0038-one-settings-schema.md.
 */
export { settingsProblems, variable } from "../../server/settings-variable";

/** A URL variable with one of `protocols`; unset or empty, null. */
export function urlVariable(name: string, protocols: readonly string[]) {
  return variable(urlReader(name, protocols));
}

/** Reads a URL with one of `protocols`; throws naming the variable. */
export function urlReader(name: string, protocols: readonly string[]) {
  return (value: string | undefined): string | null => {
    if (value === undefined || value === "") return null;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`${name} must be a URL starting with ${protocols.join(" or ")}, got something that is not a URL.`);
    }
    if (!protocols.includes(url.protocol.replace(/:$/, ""))) {
      throw new Error(`${name} must be a URL starting with ${protocols.map((p) => `${p}://`).join(" or ")}, got '${url.protocol}//…'.`);
    }
    return value;
  };
}

/** A whole number from `min` to `max`; unset or empty, `fallback`. */
export function wholeNumberVariable(name: string, fallback: number, max: number, min = 0) {
  return variable((value): number => {
    if (value === undefined || value === "") return fallback;
    if (!/^\d+$/.test(value.trim()) || Number(value) > max || Number(value) < min) throw new Error(`${name} must be a whole number from ${min} to ${max}, got '${value}'.`);
    return Number(value);
  });
}
