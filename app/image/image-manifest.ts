/** What the build knows about each source image under `content/images/` (see build-images). */
export interface ImageEntry {
  /** Intrinsic size; 0 × 0 (ratio 0) when the file could not be read. */
  width: number;
  height: number;
  ratio: number;
  /** Widths generated as webp, ascending. */
  widths: number[];
  /** `/assets/images/{name}-{hash}`; a variant is `{base}-{width}.webp`. */
  base: string;
  /** A 10 × 10 blurred webp as a data URL; empty for images that never show one. */
  placeholder: string;
}

export type ImageManifest = Record<string, ImageEntry>;
