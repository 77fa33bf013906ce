import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { generateImages } from "./build-images";

describe("generateImages", () => {
  it("makes webp variants and a placeholder for a product image", async () => {
    const dir = mkdtempSync(join(tmpdir(), "images-"));
    const products = join(dir, "products");
    mkdirSync(products);
    writeFileSync(join(products, "box.svg"), '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#2f7d4f"/></svg>');
    const { manifest, files } = await generateImages(dir);
    const box = manifest["products/box.svg"];
    expect(box).toMatchObject({ width: 400, height: 200, ratio: 0.5, widths: [80, 160, 240, 320] });
    expect(box?.placeholder).toMatch(/^data:image\/webp;base64,/);
    expect(files.get(`${box?.base.slice(1)}-320.webp`)?.subarray(8, 12).toString()).toBe("WEBP");
  });

  it("gives an unreadable image width 0, height 0, ratio 0 and says so on the console", async () => {
    const dir = mkdtempSync(join(tmpdir(), "images-"));
    writeFileSync(join(dir, "broken.png"), "not an image");
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { manifest, files } = await generateImages(dir);
    expect(manifest["broken.png"]).toMatchObject({ width: 0, height: 0, ratio: 0, widths: [] });
    expect(files.size).toBe(0);
    expect(error).toHaveBeenCalledWith(expect.stringContaining("Could not read image broken.png"));
  });
});
