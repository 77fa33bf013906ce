import type { ComponentType, LazyExoticComponent, Ref } from "react";

/**
 * A provider's part of the checkout form, said by the provider's own folder so that the checkout
 * names none (docs/decisions/0037-providers-describe-themselves.md). Browser-safe: the form checks
 * the same rules in the browser before sending and on the server always. The hint under one of its
 * methods while the buyer has chosen it is the checkout texts' `<method>Hint` (`bankHint`), when the
 * content has one.
 */
export interface CheckoutPart {
  /** The provider's id (`ProviderDescription.id`), whose payments this part starts. */
  readonly provider: string;
  /** The checkout methods (the form's `method` values) whose fields this part reads. */
  readonly methods: readonly string[];
  /** The form fields it adds to the checkout's; those in `server.singleUseFields` are never shown back. */
  readonly fields: readonly string[];
  /** The form fields in error when the buyer chose one of its methods (`method` for the choice itself). */
  problems(values: Readonly<Record<string, string>>, today: Date): readonly string[];
  /** Its part of the page beyond a radio button, shown while the buyer has chosen one of its methods. */
  readonly page?: CheckoutPagePart;
  /** Its methods the page introduces under another method's name (the Payment Element as the card it mostly is). */
  readonly namedAs?: Readonly<Record<string, string>>;
  /**
   * What only the server asks of it, written as `import.meta.env.SSR ? { … } : undefined`: Vite
   * builds the pages' JavaScript with that condition false and leaves this half out of it, so the
   * browser carries the form's rules and nothing else.
   */
  readonly server: CheckoutServerPart | undefined;
}

/** The server's half of a provider's part of the checkout. */
export interface CheckoutServerPart {
  /** The checkout methods it offers in a market while it runs: its own, and the market's it takes. */
  offeredMethods(market: MarketMethods): readonly string[];
  /** Fields sent once (card numbers, one-time tokens): never kept when the form comes back with an error. */
  readonly singleUseFields: readonly string[];
  /** Its own methods are always saved for later charges without the buyer; else the content says which are. */
  readonly savesMethods?: boolean;
  /** The payment details its provider is sent to start the payment. */
  details(values: Readonly<Record<string, string>>): Readonly<Record<string, string>>;
  /** What its part of the page may know of its settings (never a secret), or null when it needs none. */
  pageSettings?(settings: unknown): unknown;
}

/**
 * A provider's component in the checkout form, loaded only when the buyer chooses its method so
 * that the checkout's first-load JavaScript stays without it. The form knows it only through this.
 */
export interface CheckoutPagePart {
  /**
   * The hidden fields the component fills just before the form is sent, each with the stand-in the
   * form's rules accept until then; emptied whenever the form comes back refused.
   */
  readonly preparedFields: Readonly<Record<string, string>>;
  /** The component, lazily imported. */
  readonly Component: LazyExoticComponent<ComponentType<CheckoutPageProps>>;
  /** The class and test id of the empty box that keeps its place while it loads. */
  readonly placeholder: string;
}

export interface CheckoutPageProps {
  /** What `pageSettings` gave for the page. */
  settings: unknown;
  amountMinor: number;
  currency: string;
  /** Shown when the provider's script cannot be loaded. */
  unavailableText: string;
  /** Its last refusal, shown under it. */
  error: string | null;
  ref?: Ref<CheckoutPageHandle>;
}

/** What the checkout form asks of a provider's component. */
export interface CheckoutPageHandle {
  /** The values of its prepared fields, or the message to show when it refuses ("" for the form's own). */
  prepare(): Promise<{ fields: Readonly<Record<string, string>> } | { error: string }>;
  /** Finishes the next action its provider left to the browser (3-D Secure in the provider's modal). */
  finishNextAction(clientSecret: string): Promise<void>;
}

/** A market's methods as the content lists them (`content/commerce/payment-methods.json`), and the running providers. */
export interface MarketMethods {
  /** The market's methods, in its order. */
  methods: readonly string[];
  /** Each method's provider and whether it can be charged again. */
  content: Readonly<Record<string, { provider: string; reusable: boolean }>>;
  /** The ids of the providers taking payments in this running store. */
  running: ReadonlySet<string>;
}
