/**
 * One line of the go-live check (docs/architecture.md, 'Test mode and live mode'): what was checked, how it went, and for a problem
 * what to do about it. `fail` would lose money or orders and stops a live start; `warn` does not.
 */
export interface PreflightCheck {
  name: string;
  status: "ok" | "warn" | "fail";
  detail: string;
  /** What to change; for every `warn` and `fail`. */
  fix?: string;
}

export const passed = (name: string, detail: string): PreflightCheck => ({ name, status: "ok", detail });
export const failed = (name: string, detail: string, fix: string): PreflightCheck => ({ name, status: "fail", detail, fix });
export const warned = (name: string, detail: string, fix: string): PreflightCheck => ({ name, status: "warn", detail, fix });

/** The event types an endpoint is missing of those the store handles (`*` subscribes to all). */
export function missingEvents(subscribed: readonly string[], handled: readonly string[]): string[] {
  if (subscribed.includes("*")) return [];
  return handled.filter((type) => !subscribed.includes(type));
}
