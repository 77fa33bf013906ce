import { z } from "zod";
import { serverVariables } from "../../server/settings";
import { readGtmId } from "./gtm-id";
import { commerceSettingsOf, commerceVariables, type CommerceSettings } from "./commerce-settings";
import { readImageSettings, type ImageSettings } from "../image/providers";
import { defaultGeoHeaders } from "../market/country-resolution";
import { settingsProblems, variable } from "../platform/settings-variable";
import { defaultBuildCheckIntervalMs, type RuntimeSettings } from "../platform/runtime-settings";
import type { ProviderSettingsFragment } from "../payments/provider-settings";
import { conversionSettingsOf, conversionVariables, type ConversionSettings } from "../conversions/conversion-settings";

/**
 * The store's one settings schema: every environment variable the store reads, each with its
 * message, composed of the pages' part (here), the commerce side's, the HTTP server's and each
 * payment provider's own (docs/decisions/0038-one-settings-schema.md). The composition reads it once
 * at start and installs the result; every module takes its values from `settings()`.
 */

export interface PageSettings {
  images: ImageSettings;
  /** `GTM_ID`: the tag manager container, or null for no tag manager at all. */
  gtmId: string | null;
  /** `BUILD_CHECK_INTERVAL_MS`: how often browsers look for a newer build (default one hour). */
  buildCheckIntervalMs: number;
  /** `GEO_COUNTRY_HEADERS` (comma separated): the geo headers to trust, in order, for hosts that put the country elsewhere. */
  geoHeaders: readonly string[];
}

export type Settings = PageSettings & CommerceSettings & {
  /** The ad platforms that receive purchases from the server, with the buyer's consent. */
  conversions: ConversionSettings;
};

function readBuildCheckInterval(value: string | undefined): number {
  if (value === undefined || value === "") return defaultBuildCheckIntervalMs;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100) throw new Error(`BUILD_CHECK_INTERVAL_MS must be a whole number of milliseconds, at least 100, got '${value}'.`);
  return ms;
}

function readGeoHeaders(value: string | undefined): readonly string[] {
  const configured = value?.split(",").map((name) => name.trim()).filter(Boolean);
  return configured && configured.length > 0 ? configured : defaultGeoHeaders;
}

const pageVariables = {
  IMAGE_PROVIDER: z.string().optional(),
  CLOUDFLARE_IMAGES_ACCOUNT_HASH: z.string().optional(),
  GTM_ID: variable((value) => readGtmId({ GTM_ID: value })),
  BUILD_CHECK_INTERVAL_MS: variable(readBuildCheckInterval),
  GEO_COUNTRY_HEADERS: variable(readGeoHeaders),
};

type Env = Record<string, string | undefined>;

function issue(context: z.RefinementCtx, error: unknown): void {
  context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
}

/** The half-configured provider's message: what is set, what is not. */
function halfSetProblem(names: readonly string[], env: Env): string | null {
  const present = names.filter((name) => env[name]);
  const missing = names.filter((name) => !env[name]);
  if (present.length === 0 || missing.length === 0) return null;
  return `${present.join(", ")} ${present.length === 1 ? "is" : "are"} set but ${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} not: set all of ${names.join(", ")}, or none.`;
}

export interface SettingsOptions {
  /** Each payment provider's part, by its id (the composition's list). */
  providers?: Readonly<Record<string, ProviderSettingsFragment>>;
  /** The folder a relative `DATA_DIR` is under. */
  cwd?: string;
  /**
   * Told where to put them, what would stop the store from starting (a live store without a
   * provider, a half-configured provider) is put there instead of failing: the go-live check lists
   * it as one of its lines and goes on to list everything else.
   */
  problems?: string[];
}

/** The one schema, with the given providers' parts. */
export function settingsSchema({ providers = {}, cwd = process.cwd(), problems }: SettingsOptions = {}) {
  const providerVariables = Object.values(providers).reduce<z.ZodRawShape>((shape, fragment) => ({ ...shape, ...fragment.variables }), {});
  return z
    .looseObject({ ...serverVariables, ...pageVariables, ...commerceVariables, ...conversionVariables, ...providerVariables })
    .transform((values, context): Settings => {
      const env = values as unknown as Env;
      let images: ImageSettings = { provider: "local" };
      try {
        images = readImageSettings(env);
      } catch (error) {
        issue(context, error);
      }
      const commerce = commerceSettingsOf(values, values.PORT, cwd);
      const conversionProblems: string[] = [];
      const conversions = conversionSettingsOf(values, { storeMode: commerce.storeMode, testProviderUrls: commerce.testProviderUrls }, conversionProblems);
      // Like a half-configured provider, the go-live check lists them as lines of its own.
      for (const problem of conversionProblems) {
        if (problems) problems.push(problem);
        else issue(context, problem);
      }
      const configured: Record<string, unknown> = {};
      for (const [id, fragment] of Object.entries(providers)) {
        const half = halfSetProblem(fragment.credentials, env);
        if (half) {
          if (problems) problems.push(half);
          else context.addIssue({ code: "custom", message: half });
          continue;
        }
        if (!fragment.credentials.every((name) => env[name])) continue;
        try {
          configured[id] = fragment.read(values, { storeMode: commerce.storeMode, testProviderUrls: commerce.testProviderUrls });
        } catch (error) {
          issue(context, error);
        }
      }
      const live = Object.values(providers).filter((fragment) => fragment.credentials.length > 0);
      // The go-live check lists a missing provider as one of its lines.
      if (commerce.storeMode === "live" && Object.keys(configured).length === 0 && !problems && live.length > 0) {
        const sets = live.map((fragment) => `${fragment.credentials.slice(0, -1).join(", ")} and ${fragment.credentials.at(-1)}`);
        context.addIssue({
          code: "custom",
          message:
            `STORE_MODE=live needs a payment provider that takes real money, and none is configured (the test gateway takes none). ` +
            `Set ${sets.join(", or ")} (or leave STORE_MODE unset to run in test mode).`,
        });
      }
      return {
        images,
        gtmId: values.GTM_ID,
        buildCheckIntervalMs: values.BUILD_CHECK_INTERVAL_MS,
        geoHeaders: values.GEO_COUNTRY_HEADERS,
        ...commerce,
        conversions,
        providers: configured,
      };
    });
}

/** The settings of `env`; throws every bad variable's message, one per line. */
export function readSettings(env: Env, options: SettingsOptions = {}): Settings {
  const parsed = settingsSchema(options).safeParse(env);
  if (!parsed.success) throw new Error(settingsProblems(parsed.error));
  return parsed.data;
}

let installed: Settings | undefined;

/** Installed by the composition once it has read them at start. */
export function installSettings(settings: Settings | undefined): void {
  installed = settings;
}

/**
 * The running store's settings. Before the composition installs them (the build's prerendering,
 * a unit test) the environment is read once without any provider's part: pages need none of it.
 */
export function settings(): Settings {
  installed ??= readSettings(process.env);
  return installed;
}

/** The settings the browser reads; the payment setup comes from the running store. */
export function runtimeSettings(): Omit<RuntimeSettings, "paymentProviders"> {
  const { gtmId, buildCheckIntervalMs } = settings();
  return { gtmId, buildCheckIntervalMs };
}
