/**
 * The image algorithm (decision 8): validation with its exact messages, and the
 * `sizes`/`srcset` computation over the storefront's screens. Pure; providers build the URLs.
 */

const screens: Readonly<Record<string, number>> = {
  xs: 475,
  sm: 640,
  md: 854,
  lg: 1025,
  xl: 1281,
  xxl: 1536,
  "2xl": 1536,
};

const defaultDensities: readonly number[] = [1, 2];

export type ImageFit = "cover" | "contain" | "fill" | "inside" | "outside";

export interface ImageModifiers {
  width?: number;
  height?: number;
  format?: string;
  quality?: number;
  background?: string;
  fit?: ImageFit;
  blur?: number;
}

/** Builds one image URL for a source and its modifiers. */
export type ImageUrlBuilder = (src: string, modifiers: ImageModifiers) => string;

/** A source that is not a string (and not empty) is refused; empty and `data:` sources pass. */
export function checkSource(input: unknown): string | undefined {
  if (input === undefined || input === null || input === "") return undefined;
  if (typeof input !== "string") {
    throw new TypeError(`input must be a string (received ${typeof input}: ${JSON.stringify(input)})`);
  }
  return input;
}

/** `300`, `"300"` and `"300px"` are 300; `"30.5"`, `"10em"` and `""` are no size. */
export function parseSize(input: unknown): number | undefined {
  if (typeof input === "number") return input;
  if (typeof input !== "string") return undefined;
  const digits = input.replace("px", "");
  return /^\d+$/.test(digits) ? Number.parseInt(digits, 10) : undefined;
}

/** `"1x 2x"` or `"x1 x2"`: integers, zeros dropped, duplicates removed in order (`"1,2"` is [1]). */
export function parseDensities(input: string): number[] {
  const densities = input
    .split(" ")
    .map((token) => Number.parseInt(token.replace("x", ""), 10))
    .filter((density) => Number.isFinite(density) && density !== 0);
  return densities.filter((density, index) => densities.indexOf(density) === index);
}

export const emptyDensitiesMessage =
  "`densities` must not be empty, configure to `1` to render regular size only (DPR 1.0)";

export function resolveDensities(input: string | undefined, globalDefault: readonly number[] = defaultDensities): number[] {
  const parsed = input?.trim() ? parseDensities(input.trim()) : [];
  const densities = parsed.length > 0 ? parsed : [...globalDefault];
  if (densities.length === 0) throw new Error(emptyDensitiesMessage);
  return densities;
}

/** `"xs:100vw md:50vw lg:400px"` → `{ xs: "100vw", md: "50vw", lg: "400px" }`; a bare size applies from 1px. */
function parseSizes(input: string | undefined): Record<string, string> {
  const sizes: Record<string, string> = {};
  for (const entry of (input ?? "").split(/[\s,]+/).filter(Boolean)) {
    const [key = "", value] = entry.split(":");
    if (value) sizes[key.trim()] = value.trim();
    else sizes["1px"] = key.trim();
  }
  return sizes;
}

interface SizeVariant {
  size: string;
  screenMaxWidth: number;
  media: string;
  width: number;
  height: number | undefined;
}

function sizeVariant(key: string, rawSize: string, height: number | undefined, hwRatio: number): SizeVariant | undefined {
  const screenMaxWidth = screens[key] ?? Number.parseInt(key, 10);
  const isFluid = rawSize.endsWith("vw");
  const size = !isFluid && /^\d+$/.test(rawSize) ? `${rawSize}px` : rawSize;
  if (!isFluid && !size.endsWith("px")) return undefined;
  let width = Number.parseInt(size, 10);
  if (!screenMaxWidth || !width) return undefined;
  if (isFluid) width = Math.round((width / 100) * screenMaxWidth);
  return {
    size,
    screenMaxWidth,
    media: `(max-width: ${screenMaxWidth}px)`,
    width,
    height: hwRatio ? Math.round(width * hwRatio) : height,
  };
}

export interface SizedImage {
  src: string;
  srcset: string;
  sizes: string | undefined;
}

export interface SizingOptions {
  width?: number | string;
  height?: number | string;
  sizes?: string;
  densities?: string;
  modifiers?: Omit<ImageModifiers, "width" | "height">;
}

/**
 * One srcset candidate per size entry and density (or per density alone, with `Nx` descriptors,
 * when there are no sizes); each size entry takes the next entry's media condition.
 */
export function sizeImage(src: string, options: SizingOptions, buildUrl: ImageUrlBuilder): SizedImage {
  const width = parseSize(options.width);
  const height = parseSize(options.height);
  const densities = resolveDensities(options.densities);
  const hwRatio = width && height ? height / width : 0;
  const url = (w: number | undefined, h: number | undefined, density: number) =>
    buildUrl(src, { ...options.modifiers, width: w ? w * density : undefined, height: h ? h * density : undefined });

  const sizeEntries = Object.entries(parseSizes(options.sizes));
  const variants: SizeVariant[] = [];
  const candidates: { width: number; src: string }[] = [];

  if (sizeEntries.length > 0) {
    for (const [key, size] of sizeEntries) {
      const variant = sizeVariant(key, size, height, hwRatio);
      if (!variant) continue;
      variants.push(variant);
      for (const density of densities) {
        candidates.push({ width: variant.width * density, src: url(variant.width, variant.height, density) });
      }
    }
    variants.sort((a, b) => a.screenMaxWidth - b.screenMaxWidth);
    // Entries for the same screen collapse into the last; each keeps the next entry's condition.
    const distinct = variants.filter((variant, index) => variants[index + 1]?.media !== variant.media);
    distinct.forEach((variant, index) => {
      variant.media = distinct[index + 1]?.media ?? "";
    });
    variants.splice(0, variants.length, ...distinct);
  } else {
    for (const density of densities) candidates.push({ width: density, src: url(width, height, density) });
  }

  candidates.sort((a, b) => a.width - b.width);
  const unique = candidates.filter((candidate, index) => candidates[index + 1]?.width !== candidate.width);
  const sizes = variants.length > 0 ? variants.map((v) => `${v.media ? `${v.media} ` : ""}${v.size}`).join(", ") : undefined;
  const descriptor = sizes ? "w" : "x";
  return {
    src: unique.at(-1)?.src ?? src,
    srcset: unique.map((candidate) => `${candidate.src} ${candidate.width}${descriptor}`).join(", "),
    sizes,
  };
}

export type Placeholder = boolean | number | readonly [number, number?, number?, number?];

/** `true` is 10×10; `n` is n×n; `[w, h, quality, blur]`; quality 50 and blur 3 by default (0 too). */
export function placeholderModifiers(placeholder: Placeholder): ImageModifiers | undefined {
  if (placeholder === false) return undefined;
  const [width, height, quality, blur] =
    placeholder === true ? [10, 10] : typeof placeholder === "number" ? [placeholder, placeholder] : placeholder;
  return { width, height: height ?? width, quality: quality || 50, blur: blur || 3 };
}

export type Loading = "lazy" | "eager";
export type Decoding = "async" | "auto" | "sync";

/** `true` is `anonymous`; `''` and `false` leave the attribute out. */
export function crossOrigin(value: boolean | "anonymous" | "use-credentials" | "" | undefined): "anonymous" | "use-credentials" | undefined {
  if (value === true) return "anonymous";
  if (value === false || value === "" || value === undefined) return undefined;
  return value;
}
