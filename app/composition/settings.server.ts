import type { ThirdPartyOrigins } from "../../server/csp";
import { trustGeoHeaders } from "../market/geo-headers.server";
import { installSettings, readSettings, type Settings, type SettingsOptions } from "../store/settings.server";
import { paymentProviders } from "./payment-providers.server";

/** Each payment provider's part of the settings schema, by the provider's id. */
const providerSettings = Object.fromEntries(paymentProviders.map((provider) => [provider.id, provider.settings]));

/** The store's settings from `env`, with every provider's part; throws every bad variable's message. */
export function readStoreSettings(env: Record<string, string | undefined>, options: Omit<SettingsOptions, "providers"> = {}): Settings {
  return readSettings(env, { ...options, providers: providerSettings });
}

let read: Settings | undefined;

/**
 * Reads the environment once, before the server listens (the server calls it first), and installs
 * the settings every module takes its values from: a bad setting stops the server naming it.
 */
export function checkStartupSettings(): Settings {
  if (read) return read;
  read = readStoreSettings(process.env);
  installSettings(read);
  trustGeoHeaders(read.geoHeaders);
  return read;
}

let origins: ThirdPartyOrigins | undefined;

/** The third-party origins every page's policy allows, from the settings (worked out once). */
export function thirdPartyOrigins(): ThirdPartyOrigins {
  origins ??= thirdPartyOriginsOf(checkStartupSettings());
  return origins;
}

export function thirdPartyOriginsOf(settings: Settings): ThirdPartyOrigins {
  const images = settings.images.provider === "cloudflare" ? ["https://imagedelivery.net"] : [];
  const tagManager = settings.gtmId ? ["https://www.googletagmanager.com"] : [];
  const analytics = settings.gtmId ? ["https://*.google-analytics.com", "https://*.analytics.google.com"] : [];
  const payments = paymentProviders.flatMap((provider) => {
    const own = settings.providers[provider.id];
    return own !== undefined && provider.contentSecurity ? [provider.contentSecurity(own)] : [];
  });
  return {
    script: [...tagManager, ...payments.flatMap((origins) => origins.script)],
    frame: payments.flatMap((origins) => origins.frame),
    img: [...images, ...tagManager, ...analytics],
    connect: [...tagManager, ...analytics, ...payments.flatMap((origins) => origins.connect)],
  };
}
