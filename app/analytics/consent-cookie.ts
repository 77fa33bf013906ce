import type { ConsentChoice } from "./data-layer";

/**
 * Tells the server about analytics consent, which it needs before it may keep a split test's arm
 * in a cookie (decision 28). Set only once the visitor accepts; a rejection removes it, and the
 * visit's touch with it. Loaded with the banner, never with the page.
 */
export function rememberConsentForServer(choice: ConsentChoice): void {
  const attributes = `; Path=/; SameSite=Lax${location.protocol === "https:" ? "; Secure" : ""}`;
  document.cookie = choice === "granted" ? `vitanor_consent=granted; Max-Age=15552000${attributes}` : `vitanor_consent=; Max-Age=0${attributes}`;
  // The visit's touch is kept only with consent (decision 45): a withdrawal takes it off the device at once.
  if (choice !== "granted") document.cookie = `vitanor_touch=; Max-Age=0${attributes}`;
}
