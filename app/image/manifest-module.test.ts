import { describe, expect, it } from "vitest";
import type { ImageManifest } from "./image-manifest";
import { manifestModule } from "./manifest-module";

/** Evaluates the module's source as the bundler would, returning its default export. */
async function evaluate(source: string): Promise<ImageManifest> {
  const module = (await import(`data:text/javascript,${encodeURIComponent(source)}`)) as { default: ImageManifest };
  return module.default;
}

const flag = { width: 600, height: 400, ratio: 400 / 600, widths: [80, 160, 240, 320, 480], base: "/assets/images/flags/fr-b1e852a0", placeholder: "" };
const manifest: ImageManifest = {
  "flags/fr.svg": flag,
  "products/shape.svg": { width: 320, height: 320, ratio: 1, widths: [80, 160, 240, 320], base: "/assets/images/products/shape-0a1b2c3d", placeholder: "data:image/webp;base64,UklGRg==" },
  "broken.png": { width: 0, height: 0, ratio: 0, widths: [], base: "/assets/images/broken-12345678", placeholder: "" },
};

describe("manifestModule", () => {
  it("ships size, base and placeholder and gives back the same manifest", async () => {
    const source = manifestModule(manifest);
    expect(source).not.toContain('"widths"');
    expect(await evaluate(source)).toEqual(manifest);
  });

  it("ships a manifest as it is when its widths do not follow from the sizes", async () => {
    const odd = { "a.png": { ...flag, widths: [100] } };
    expect(await evaluate(manifestModule(odd))).toEqual(odd);
  });
});
