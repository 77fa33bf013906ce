/**
 * Build-time image generation for the `local` provider: every source image under
 * `content/images/` becomes webp variants at a ladder of widths (content-hashed, so they are
 * served as immutable assets) and a 10 × 10 blurred placeholder (quality 50, blur 3).
 * Runs in Node only (the Vite config and the tests), never in the app.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import sharp from "sharp";
import type { ImageEntry, ImageManifest } from "./image-manifest";

export const widthLadder = [80, 160, 240, 320, 480, 640, 800, 960, 1280, 1600, 1920];
/**
 * Only product images get a blurred stand-in (they appear lazily in long offer pages); every
 * placeholder is shipped with every page, so marks and illustrations go without.
 */
const withPlaceholder = ["products/"];
const sourcePattern = /\.(svg|png|jpe?g|webp)$/i;

export interface GeneratedImages {
  manifest: ImageManifest;
  /** File name under the client build (`assets/images/...webp`) → bytes. */
  files: Map<string, Buffer>;
}

function listSources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((path) => sourcePattern.test(path))
    .map((path) => path.split(sep).join("/"))
    .sort();
}

// Vector sources are rasterised at twice the default density, enough for their widest variant.
const input = (bytes: Buffer, isSvg: boolean) => sharp(bytes, isSvg ? { density: 144 } : {});

/** Reads one source; a file that cannot be read gets width 0, height 0, ratio 0 and a console message. */
async function readSize(bytes: Buffer, isSvg: boolean, name: string): Promise<{ width: number; height: number }> {
  try {
    const { width, height } = await sharp(bytes).metadata();
    if (!width || !height) throw new Error("no dimensions");
    // A vector source is drawn for its declared size; it is rendered up to twice that, for 2x screens.
    return isSvg ? { width: width * 2, height: height * 2 } : { width, height };
  } catch (error) {
    console.error(`Could not read image ${name}: ${(error as Error).message}`);
    return { width: 0, height: 0 };
  }
}

async function generateOne(sourceDir: string, name: string, files: Map<string, Buffer>): Promise<ImageEntry> {
  const bytes = readFileSync(join(sourceDir, name));
  const isSvg = name.toLowerCase().endsWith(".svg");
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 8);
  const base = `/assets/images/${name.replace(sourcePattern, "").replace(/[^a-z0-9/-]/gi, "-")}-${hash}`;
  const { width, height } = await readSize(bytes, isSvg, name);
  if (width === 0) return { width: 0, height: 0, ratio: 0, widths: [], base, placeholder: "" };

  const widths = widthLadder.filter((candidate) => candidate <= width);
  for (const variantWidth of widths) {
    const webp = await input(bytes, isSvg).resize({ width: variantWidth }).webp({ quality: 80 }).toBuffer();
    files.set(`${base.slice(1)}-${variantWidth}.webp`, webp);
  }
  const placeholder = !withPlaceholder.some((prefix) => name.startsWith(prefix))
    ? ""
    : `data:image/webp;base64,${(await input(bytes, isSvg).resize(10, 10, { fit: "cover" }).blur(3).webp({ quality: 50 }).toBuffer()).toString("base64")}`;
  return { width, height, ratio: height / width, widths, base, placeholder };
}

export async function generateImages(sourceDir: string): Promise<GeneratedImages> {
  const files = new Map<string, Buffer>();
  const manifest: ImageManifest = {};
  for (const name of listSources(sourceDir)) {
    manifest[relative(".", name)] = await generateOne(sourceDir, name, files);
  }
  return { manifest, files };
}
