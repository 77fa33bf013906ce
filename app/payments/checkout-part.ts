/**
 * A provider's part of the checkout form, said by the provider's own folder so that the checkout
 * names none (docs/decisions/0037-providers-describe-themselves.md). Browser-safe: the form checks
 * the same rules in the browser before sending and on the server always.
 */
export interface CheckoutPart {
  /** The provider's id (`ProviderDescription.id`), whose payments this part starts. */
  readonly provider: string;
  /** The checkout methods (the form's `method` values) whose fields this part reads. */
  readonly methods: readonly string[];
  /** The checkout methods it offers in a market while it runs: its own, and the market's it takes. */
  offeredMethods(market: MarketMethods): readonly string[];
  /** Its own methods are always saved for later charges without the buyer; else the content says which are. */
  readonly savesMethods?: boolean;
  /** The form fields it adds to the checkout's; those in `singleUseFields` are never shown back. */
  readonly fields: readonly string[];
  /** Fields sent once (card numbers, one-time tokens): never kept when the form comes back with an error. */
  readonly singleUseFields: readonly string[];
  /** The form fields in error when the buyer chose one of its methods (`method` for the choice itself). */
  problems(values: Readonly<Record<string, string>>, today: Date): readonly string[];
  /** The payment details its provider is sent to start the payment. */
  details(values: Readonly<Record<string, string>>): Readonly<Record<string, string>>;
  /** What its part of the page may know of its settings (never a secret), or null when it needs none. */
  pageSettings?(settings: unknown): unknown;
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
