import type { ProviderDescription } from "../provider-description";
import { payPalPreflight } from "./paypal-preflight.server";
import { createPayPalProvider } from "./paypal-provider.server";
import { payPalSettings, type PayPalSettings } from "./paypal-settings";

/** PayPal as the store knows it (docs/decisions/0037-providers-describe-themselves.md). */
export const paypal: ProviderDescription<PayPalSettings> = {
  id: "paypal",
  name: "PayPal",
  settings: payPalSettings,
  create: (settings, { publicUrl }) => createPayPalProvider({ ...settings, publicUrl }),
  // PayPal's pages are its own: the buyer leaves ours for them, so no page needs its origins.
  preflight: (settings, { publicUrl, storeMode }) => payPalPreflight({ ...settings, publicUrl, storeMode }),
  confirmingCheck: "PayPal credentials",
  // PayPal cannot vault for Swiss merchants' buyers, so its upsells could not be one click.
  notOfferedIn: { markets: ["CH", "CH-FR"], why: "PayPal is not offered in Switzerland (no vaulting)" },
};
