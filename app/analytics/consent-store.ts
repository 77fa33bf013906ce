import type { ConsentChoice } from "./data-layer";

const key = "vitanor:consent";

/** The visitor's stored choice; anything unreadable or tampered counts as no choice yet. */
export function readConsent(): ConsentChoice | null {
  try {
    const value = window.localStorage.getItem(key);
    return value === "granted" || value === "denied" ? value : null;
  } catch {
    return null;
  }
}

export function storeConsent(choice: ConsentChoice): void {
  try {
    window.localStorage.setItem(key, choice);
  } catch {
    // Without storage the choice lasts for this page view; the banner asks again next time.
  }
}
