import { isRouteErrorResponse } from "react-router";
import type { StorefrontState } from "../market/storefront-context";

/** The message of the locale guard (decision 4); unmatched URLs name their path instead. */
export const notFoundForLocale = "Page not found";

export function notFoundForPath(pathname: string): string {
  return `Page Not Found: ${pathname}`;
}

/** What our own 404s carry; the storefront state is there when the root loader could not run. */
export interface ErrorPayload {
  message: string;
  storefront?: StorefrontState;
}

export function readErrorPayload(error: unknown): ErrorPayload | undefined {
  if (!isRouteErrorResponse(error)) return undefined;
  const payload: unknown = error.data;
  if (typeof payload !== "object" || payload === null || !("message" in payload)) return undefined;
  return typeof payload.message === "string" ? (payload as ErrorPayload) : undefined;
}
