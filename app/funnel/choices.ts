import { sessionStore } from "../platform/browser-storage";

/** What the visitor chose in this browser session: bundles bought or accepted, upsells declined. */
export interface Choice {
  bundleId: string;
  accepted: boolean;
}

const key = "vitanor:choices";


/** The recorded choices; anything that is not a list of well-formed choices counts as none. */
export function readChoices(storage: Storage | undefined = sessionStore()): Choice[] {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(key) ?? "[]");
    if (!Array.isArray(stored)) return [];
    return stored.filter(
      (choice): choice is Choice =>
        typeof choice === "object" && choice !== null && typeof choice.bundleId === "string" && typeof choice.accepted === "boolean",
    );
  } catch {
    return [];
  }
}

/** Records a choice; a later choice about the same bundle replaces the earlier one. */
export function recordChoice(choice: Choice, storage: Storage | undefined = sessionStore()): void {
  const choices = [...readChoices(storage).filter((earlier) => earlier.bundleId !== choice.bundleId), choice];
  try {
    storage?.setItem(key, JSON.stringify(choices));
  } catch {
    // Without storage the thank-you page cannot list the choice; the order itself is unaffected.
  }
}
