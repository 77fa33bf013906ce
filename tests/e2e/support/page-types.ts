/** One path of each page type, in several markets, for the checks that every page must pass. */
export const pageTypes = [
  "/", "/fr", "/offer/fr", "/offer2/de", "/take2/gb", "/lionoffer/se", "/offerexitpop/it", "/offerthanks", "/v1/fi", "/v31/gb",
  "/summary/ch", "/summarypop/fr?step=bundle", "/v1ip-summary/ch-fr", "/upsell/it", "/upsellMind/dk", "/detolex-upsell/es",
  "/thankyou/es", "/paypal-confirm/upsell", "/refund/de", "/terms/gb", "/feedback/dk", "/fibergum/fr", "/hypnotherapy/se",
  "/v8/at", "/addapp/ch-fr", "/review-policy/it", "/review/fr", "/offer/xx", "/no/such/page",
];
