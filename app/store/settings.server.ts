import { readGtmId } from "./gtm-id";
import { readImageSettings, type ImageSettings } from "../image/providers";
import { defaultBuildCheckIntervalMs, type RuntimeSettings } from "../platform/runtime-settings";

/**
 * Settings read from the environment once. `checkStartupSettings()` is called by the server
 * before it listens, so a bad setting stops it with a message naming the variable.
 */
let images: ImageSettings | undefined;
let gtmId: string | null | undefined;
let buildCheckIntervalMs: number | undefined;

export function imageSettings(): ImageSettings {
  images ??= readImageSettings(process.env);
  return images;
}

/** `GTM_ID`: the tag manager container, or null for no tag manager at all. */
export function gtmSettings(): string | null {
  if (gtmId === undefined) gtmId = readGtmId(process.env);
  return gtmId;
}

/** `BUILD_CHECK_INTERVAL_MS`: how often browsers look for a newer build (default one hour). */
export function buildCheckInterval(): number {
  if (buildCheckIntervalMs !== undefined) return buildCheckIntervalMs;
  const value = process.env.BUILD_CHECK_INTERVAL_MS;
  if (value === undefined || value === "") return (buildCheckIntervalMs = defaultBuildCheckIntervalMs);
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 100) {
    throw new Error(`BUILD_CHECK_INTERVAL_MS must be a whole number of milliseconds, at least 100, got '${value}'.`);
  }
  return (buildCheckIntervalMs = ms);
}

export function checkStartupSettings(): void {
  imageSettings();
  gtmSettings();
  buildCheckInterval();
}

/** The settings read from the environment; the payment setup comes from the running store. */
export function runtimeSettings(): Omit<RuntimeSettings, "payments"> {
  return { gtmId: gtmSettings(), buildCheckIntervalMs: buildCheckInterval() };
}
