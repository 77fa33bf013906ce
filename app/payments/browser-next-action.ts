import type { BrowserNextAction } from "./provider";

/**
 * Finishing a provider's next action (3-D Secure in the provider's modal) in a page that has none of
 * its components, as the upsell page: a provider that can do it has a `next-action.ts` in its folder
 * (the folder named as the provider's id) exporting `finishNextAction`, loaded only when a payment
 * needs it, so that no page's first-load JavaScript carries it and no page names the provider.
 */
export type FinishNextAction = (settings: unknown, clientSecret: string) => Promise<void>;

/** A next action the provider left to the browser, with what its part of the page may know of its settings. */
export interface ProviderNextAction extends BrowserNextAction {
  provider: string;
  /** Its checkout part's `pageSettings`: never a secret. */
  settings: unknown;
}

const finishers = import.meta.glob<FinishNextAction>("./*/next-action.ts", { import: "finishNextAction" });

/** Whether the provider `id` can finish its next actions in the browser. */
export function finishesInBrowser(id: string): boolean {
  return `./${id}/next-action.ts` in finishers;
}

/** Loads the provider's finisher and runs it; whatever it resolves, the server asks the provider how the payment ended. */
export async function finishInBrowser(action: ProviderNextAction): Promise<void> {
  const finish = await finishers[`./${action.provider}/next-action.ts`]?.();
  await finish?.(action.settings, action.clientSecret);
}
