import type { BrowserNextAction } from "./provider";

/**
 * Finishing a provider's next action (3-D Secure in the provider's modal) in a page that has none of
 * its components, as the upsell page: a provider that can do it has its script's module in its folder,
 * `<id>/<id>-js.ts` (`stripe/stripe-js.ts`), exporting `finishNextAction`. It is loaded only when a
 * payment needs it, so that no page's first-load JavaScript carries it and no page names the provider.
 */
export type FinishNextAction = (settings: unknown, clientSecret: string) => Promise<void>;

/** A next action the provider left to the browser, with what its part of the page may know of its settings. */
export interface ProviderNextAction extends BrowserNextAction {
  provider: string;
  /** Its checkout part's `server.pageSettings`: never a secret. */
  settings: unknown;
}

const providerScripts = import.meta.glob<{ finishNextAction: FinishNextAction }>("./*/*-js.ts");

/** Whether the provider `id` can finish its next actions in the browser. */
export function finishesInBrowser(id: string): boolean {
  return `./${id}/${id}-js.ts` in providerScripts;
}

/** Loads the provider's script module and finishes the action; whatever it resolves, the server asks the provider how the payment ended. */
export async function finishInBrowser(action: ProviderNextAction): Promise<void> {
  const script = await providerScripts[`./${action.provider}/${action.provider}-js.ts`]?.();
  await script?.finishNextAction(action.settings, action.clientSecret);
}
