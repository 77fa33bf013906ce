import { checkSource, crossOrigin, parseSize, placeholderModifiers, sizeImage, type ImageModifiers, type Placeholder } from "./image-core";
import type { ImageManifest } from "./image-manifest";
import { imagePresets, type ImagePreset } from "./presets";
import { cloudflareProvider, localProvider, providerNames, type ImageSettings } from "./providers";

export interface ImageRequest {
  src: unknown;
  provider?: string;
  preset?: string;
  width?: number | string;
  height?: number | string;
  sizes?: string;
  densities?: string;
  modifiers?: Omit<ImageModifiers, "width" | "height">;
  placeholder?: Placeholder;
  crossOrigin?: boolean | "anonymous" | "use-credentials" | "";
}

export interface ResolvedImage {
  src: string;
  srcSet: string | undefined;
  sizes: string | undefined;
  width: number | undefined;
  height: number | undefined;
  /** The blurred stand-in shown until the image has loaded, when asked for. */
  placeholder: string | undefined;
  crossOrigin: "anonymous" | "use-credentials" | undefined;
}

/** Resolves an image request to `<img>` attributes: provider checked first, then the preset. */
export function resolveImage(request: ImageRequest, settings: ImageSettings, manifest: ImageManifest): ResolvedImage {
  const providerName = request.provider ?? settings.provider;
  if (!(providerNames as readonly string[]).includes(providerName)) throw new Error(`Unknown provider: ${providerName}`);
  let preset: ImagePreset | undefined;
  if (request.preset !== undefined) {
    preset = (imagePresets as Record<string, ImagePreset>)[request.preset];
    if (!preset) throw new Error(`Unknown preset: ${request.preset}`);
  }
  const src = checkSource(request.src);
  const width = request.width ?? preset?.width;
  const height = request.height ?? preset?.height;
  const base = { width: undefined, height: undefined, placeholder: undefined, crossOrigin: crossOrigin(request.crossOrigin) };
  // Empty sources and data URLs pass through untouched.
  if (!src || src.startsWith("data:")) return { ...base, src: src ?? "", srcSet: undefined, sizes: undefined };

  const local = localProvider(manifest);
  const buildUrl =
    providerName === "cloudflare" && settings.accountHash
      ? cloudflareProvider(settings.accountHash, settings.imageIds ?? {}, local)
      : local;
  const modifiers = { format: "webp", fit: "cover" as const, ...preset?.modifiers, ...request.modifiers };
  const sized = sizeImage(src, { width, height, sizes: request.sizes ?? preset?.sizes, densities: request.densities, modifiers }, buildUrl);
  const placeholderSize = request.placeholder === undefined ? undefined : placeholderModifiers(request.placeholder);
  return {
    ...base,
    src: sized.src,
    srcSet: sized.srcset,
    sizes: sized.sizes,
    width: parseSize(width),
    height: parseSize(height),
    placeholder: placeholderSize
      ? providerName === "local"
        ? manifest[src]?.placeholder || undefined
        : buildUrl(src, { ...modifiers, ...placeholderSize })
      : undefined,
  };
}
