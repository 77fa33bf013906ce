import { readImageSettings, type ImageSettings } from "../image/providers";

/**
 * Settings read from the environment once. `checkStartupSettings()` is called by the server
 * before it listens, so a bad setting stops it with a message naming the variable.
 */
let images: ImageSettings | undefined;

export function imageSettings(): ImageSettings {
  images ??= readImageSettings(process.env);
  return images;
}

export function checkStartupSettings(): void {
  imageSettings();
}
