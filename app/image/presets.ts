import type { ImageModifiers } from "./image-core";

export interface ImagePreset {
  width: number;
  height: number;
  sizes?: string;
  modifiers?: Omit<ImageModifiers, "width" | "height">;
}

/** The image shapes the storefront uses; a component names one instead of repeating sizes. */
export const imagePresets = {
  hero: { width: 480, height: 480, sizes: "xs:100vw sm:480px" },
  packshot: { width: 160, height: 160, sizes: "xs:128px md:160px" },
  illustration: { width: 640, height: 320, sizes: "xs:100vw md:640px" },
  flag: { width: 24, height: 16 },
  payment: { width: 48, height: 30 },
} as const satisfies Record<string, ImagePreset>;

