import { readGtmId } from "../analytics/gtm-id";
import { readImageSettings, type ImageSettings } from "../image/providers";

/**
 * Settings read from the environment once. `checkStartupSettings()` is called by the server
 * before it listens, so a bad setting stops it with a message naming the variable.
 */
let images: ImageSettings | undefined;
let gtmId: string | null | undefined;

export function imageSettings(): ImageSettings {
  images ??= readImageSettings(process.env);
  return images;
}

/** `GTM_ID`: the tag manager container, or null for no tag manager at all. */
export function gtmSettings(): string | null {
  if (gtmId === undefined) gtmId = readGtmId(process.env);
  return gtmId;
}

export function checkStartupSettings(): void {
  imageSettings();
  gtmSettings();
}
