import { widthLadder } from "./build-images";
import type { ImageEntry, ImageManifest } from "./image-manifest";

const ratioOf = (entry: Pick<ImageEntry, "width" | "height">) => (entry.width ? entry.height / entry.width : 0);
const widthsOf = (width: number) => widthLadder.filter((candidate) => candidate <= width);

/** Whether an entry's ratio and widths follow from its size, as `generateImages` makes them. */
function derivable(entry: ImageEntry): boolean {
  const widths = widthsOf(entry.width);
  return entry.ratio === ratioOf(entry) && entry.widths.length === widths.length && entry.widths.every((width, index) => width === widths[index]);
}

/**
 * The source of `virtual:image-manifest`. Every page ships it, so each entry travels as its size,
 * base path and placeholder, and the ratio and the ladder of widths are derived in the browser
 * (about a third of the compressed size of the plain JSON). A manifest whose entries do not
 * follow that rule is shipped as it is.
 */
export function manifestModule(manifest: ImageManifest): string {
  const entries = Object.entries(manifest);
  if (!entries.every(([, entry]) => derivable(entry))) return `export default ${JSON.stringify(manifest)};`;
  const rows = Object.fromEntries(
    entries.map(([name, entry]) => [name, entry.placeholder ? [entry.width, entry.height, entry.base, entry.placeholder] : [entry.width, entry.height, entry.base]]),
  );
  return [
    `const ladder = ${JSON.stringify(widthLadder)};`,
    `const rows = ${JSON.stringify(rows)};`,
    "const manifest = {};",
    "for (const [name, [width, height, base, placeholder = \"\"]] of Object.entries(rows)) {",
    "  manifest[name] = { width, height, ratio: width ? height / width : 0, widths: ladder.filter((candidate) => candidate <= width), base, placeholder };",
    "}",
    "export default manifest;",
  ].join("\n");
}
