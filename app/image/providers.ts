import cloudflareImageIds from "../../content/images/cloudflare-ids.json";
import { type ImageModifiers, type ImageUrlBuilder } from "./image-core";
import type { ImageManifest } from "./image-manifest";
import type { ImageSettings } from "../market/storefront-context";

export type { ImageSettings };

export const providerNames = ["local", "cloudflare"] as const satisfies readonly ImageSettings["provider"][];

/**
 * `local`: the build's webp variants; a requested width snaps to the smallest generated one that
 * is at least as wide (or the widest there is). Unknown sources are served as they are.
 */
export function localProvider(manifest: ImageManifest): ImageUrlBuilder {
  return (src, modifiers) => {
    const entry = manifest[src];
    if (!entry || entry.widths.length === 0) return src;
    const wanted = modifiers.width ?? entry.widths.at(-1) ?? 0;
    const width = entry.widths.find((candidate) => candidate >= wanted) ?? entry.widths.at(-1);
    return `${entry.base}-${width}.webp`;
  };
}

const cloudflareFit: Record<string, string> = { cover: "cover", contain: "contain", fill: "pad", inside: "scale-down", outside: "cover" };

/**
 * `cloudflare`: `https://imagedelivery.net/<hash>/<id>/<options>` with the image id mapped from the
 * file name; gamma 0 by default (the service ignores it). Options that are undefined are dropped,
 * and without any the URL ends in the named variant `public`. A file without an id falls back
 * to the local variant, so a missing mapping never breaks the page.
 */
export function cloudflareProvider(accountHash: string, imageIds: Record<string, string>, fallback: ImageUrlBuilder): ImageUrlBuilder {
  return (src, modifiers: ImageModifiers) => {
    const id = imageIds[src];
    if (!id) return fallback(src, modifiers);
    const options = [
      modifiers.width !== undefined && `w=${modifiers.width}`,
      modifiers.height !== undefined && `h=${modifiers.height}`,
      modifiers.fit !== undefined && `fit=${cloudflareFit[modifiers.fit] ?? modifiers.fit}`,
      modifiers.quality !== undefined && `q=${modifiers.quality}`,
      `f=${modifiers.format ?? "auto"}`,
      modifiers.background !== undefined && `background=${encodeURIComponent(modifiers.background)}`,
      modifiers.blur !== undefined && `blur=${modifiers.blur}`,
    ].filter((option): option is string => Boolean(option));
    const hasSizing = options.length > 1 || modifiers.format !== undefined;
    return `https://imagedelivery.net/${accountHash}/${id}/${hasSizing ? [...options, "gamma=0"].join(",") : "public"}`;
  };
}

/** Checks the image settings at start-up; the messages name the setting and what it expects. */
export function readImageSettings(env: Record<string, string | undefined>): ImageSettings {
  const provider = env.IMAGE_PROVIDER?.trim() || "local";
  if (!(providerNames as readonly string[]).includes(provider)) throw new Error(`Unknown provider: ${provider}`);
  if (provider === "cloudflare") {
    const accountHash = env.CLOUDFLARE_IMAGES_ACCOUNT_HASH?.trim() ?? "";
    if (!/^[\w-]{10,64}$/.test(accountHash)) {
      throw new Error(
        "CLOUDFLARE_IMAGES_ACCOUNT_HASH must be set to your Cloudflare Images account hash (letters, digits, - and _) when IMAGE_PROVIDER=cloudflare",
      );
    }
    return { provider: "cloudflare", accountHash, imageIds: cloudflareImageIds as Record<string, string> };
  }
  return { provider: "local" };
}
