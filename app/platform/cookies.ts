/**
 * The consent cookie (`analytics/consent-cookie.ts` writes it when the visitor accepts) and the one
 * reader of a cookie's value, for the server's `Cookie` header and the page's `document.cookie`.
 */
export const consentCookieName = "vitanor_consent";

/** One cookie's value from a `Cookie` header (or `document.cookie`). */
export function cookieValue(header: string | null | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator !== -1 && part.slice(0, separator).trim() === name) return part.slice(separator + 1).trim();
  }
  return null;
}

/** Whether a `Cookie` header carries the visitor's consent: kept on the device, reported to ad platforms. */
export const hasConsent = (header: string | null | undefined): boolean => cookieValue(header, consentCookieName) === "granted";
