import { createContext, useContext } from "react";
import type { ImageSettings } from "./providers";

/** The provider the page's images come from; the document provides it from the storefront's settings. */
export const ImageSettingsContext = createContext<ImageSettings | null>(null);

export function useImageSettings(): ImageSettings {
  const settings = useContext(ImageSettingsContext);
  if (!settings) throw new Error("useImageSettings() needs the ImageSettingsContext provider of the root route");
  return settings;
}
