import { z } from "zod";
import { urlVariable } from "../platform/settings-variable";
import { requireProviderOrigin, type ProviderSettingsContext } from "../payments/provider-settings";

/**
 * The ad platforms' part of the one settings schema (docs/decisions/0038-one-settings-schema.md):
 * each platform is switched on by its two credentials together, and without them nothing is sent
 * to it (docs/decisions/0046-server-side-conversions.md).
 */

/** The Graph API version of Meta's Conversions API, pinned: Meta supports each version for at least two years. */
export const metaGraphApiVersion = "v25.0";

export const metaApiOrigin = "https://graph.facebook.com";
export const ga4ApiOrigin = "https://www.google-analytics.com";
/** Google's endpoint that collects in the EU, which live mode also accepts. */
const ga4EuOrigin = "https://region1.google-analytics.com";

export interface MetaSettings {
  pixelId: string;
  accessToken: string;
  apiUrl: string;
}

export interface Ga4Settings {
  measurementId: string;
  apiSecret: string;
  apiUrl: string;
}

/** Which platforms receive the store's purchases; null, not configured. */
export interface ConversionSettings {
  meta: MetaSettings | null;
  ga4: Ga4Settings | null;
}

export const conversionVariables = {
  META_PIXEL_ID: z.string().optional(),
  META_CAPI_TOKEN: z.string().optional(),
  META_API_URL: urlVariable("META_API_URL", ["http", "https"]),
  GA4_MEASUREMENT_ID: z.string().optional(),
  GA4_API_SECRET: z.string().optional(),
  GA4_API_URL: urlVariable("GA4_API_URL", ["http", "https"]),
};

type ConversionValues = z.output<z.ZodObject<typeof conversionVariables>>;

/** Both credentials or neither; a half-set pair names what is missing. */
function pairOf(first: [string, string | undefined], second: [string, string | undefined]): [string, string] | null {
  const [firstName, firstValue] = first;
  const [secondName, secondValue] = second;
  if (!firstValue && !secondValue) return null;
  if (!firstValue || !secondValue) {
    const [set, unset] = firstValue ? [firstName, secondName] : [secondName, firstName];
    throw new Error(`${set} is set but ${unset} is not: set both ${firstName} and ${secondName}, or neither (then nothing is sent to that platform).`);
  }
  return [firstValue.trim(), secondValue.trim()];
}

function readMeta(values: ConversionValues, context: ProviderSettingsContext): MetaSettings | null {
  const pair = pairOf(["META_PIXEL_ID", values.META_PIXEL_ID], ["META_CAPI_TOKEN", values.META_CAPI_TOKEN]);
  if (!pair) return null;
  const [pixelId, accessToken] = pair;
  if (!/^\d{5,20}$/.test(pixelId)) throw new Error(`META_PIXEL_ID must be the pixel's (dataset's) number as Events Manager shows it, got '${pixelId}'.`);
  requireProviderOrigin("META_API_URL", values.META_API_URL, [metaApiOrigin], context);
  return { pixelId, accessToken, apiUrl: (values.META_API_URL ?? metaApiOrigin).replace(/\/+$/, "") };
}

function readGa4(values: ConversionValues, context: ProviderSettingsContext): Ga4Settings | null {
  const pair = pairOf(["GA4_MEASUREMENT_ID", values.GA4_MEASUREMENT_ID], ["GA4_API_SECRET", values.GA4_API_SECRET]);
  if (!pair) return null;
  const [measurementId, apiSecret] = pair;
  if (!/^G-[A-Z0-9]+$/.test(measurementId)) throw new Error(`GA4_MEASUREMENT_ID must be a web stream's measurement id such as G-ABC123XYZ, got '${measurementId}'.`);
  requireProviderOrigin("GA4_API_URL", values.GA4_API_URL, [ga4ApiOrigin, ga4EuOrigin], context);
  return { measurementId, apiSecret, apiUrl: (values.GA4_API_URL ?? ga4ApiOrigin).replace(/\/+$/, "") };
}

/** The platforms' settings; every problem found, one message each, in `problems`. */
export function conversionSettingsOf(values: ConversionValues, context: ProviderSettingsContext, problems: string[]): ConversionSettings {
  const settings: ConversionSettings = { meta: null, ga4: null };
  try {
    settings.meta = readMeta(values, context);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  try {
    settings.ga4 = readGa4(values, context);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  return settings;
}
