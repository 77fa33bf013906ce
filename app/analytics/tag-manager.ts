/**
 * What the storefront does with a tag manager once a runtime setting names one: the stored
 * consent choice and the data layer. Loaded after the page (`analytics.tsx`), so that pages of
 * stores without a tag manager, and every page's first load, go without this code.
 */
export { readConsent, storeConsent } from "./consent-store";
export { loadTagManager, pushConsentDefaults, pushConsentUpdate, pushContentView, pushPurchase } from "./data-layer";
