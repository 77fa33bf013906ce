import { z } from "zod";
import { urlVariable } from "../../platform/settings-variable";
import { requireProviderOrigin, type ProviderSettingsFragment } from "../provider-settings";
import { payPalApiOrigins, payPalApiUrls } from "./paypal-provider.server";

/** PayPal's REST credentials (all three settings, or none), and its API. */
export interface PayPalSettings {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  apiUrl: string;
}

export const payPalSettings: ProviderSettingsFragment<PayPalSettings> = {
  variables: {
    PAYPAL_CLIENT_ID: z.string().optional(),
    PAYPAL_CLIENT_SECRET: z.string().optional(),
    PAYPAL_WEBHOOK_ID: z.string().optional(),
    PAYPAL_API_URL: urlVariable("PAYPAL_API_URL", ["http", "https"]),
  },
  credentials: ["PAYPAL_CLIENT_ID", "PAYPAL_CLIENT_SECRET", "PAYPAL_WEBHOOK_ID"],
  read(values, context) {
    const apiUrl = values.PAYPAL_API_URL as string | null;
    requireProviderOrigin("PAYPAL_API_URL", apiUrl, payPalApiOrigins, context);
    return {
      clientId: values.PAYPAL_CLIENT_ID as string,
      clientSecret: values.PAYPAL_CLIENT_SECRET as string,
      webhookId: values.PAYPAL_WEBHOOK_ID as string,
      // Test mode talks to PayPal's sandbox unless told otherwise (the tests use a local fake).
      apiUrl: apiUrl ?? (context.storeMode === "live" ? payPalApiUrls.live : payPalApiUrls.sandbox),
    };
  },
};
