import { describe, expect, it } from "vitest";
import type { ImageManifest } from "./image-manifest";
import { cloudflareProvider, localProvider, readImageSettings } from "./providers";
import { resolveImage } from "./resolve-image";

const manifest: ImageManifest = {
  "products/shape.svg": {
    width: 960,
    height: 960,
    ratio: 1,
    widths: [80, 160, 240, 320, 480, 640, 800, 960],
    base: "/assets/images/products/shape-1234abcd",
    placeholder: "data:image/webp;base64,AAAA",
  },
};
const local = { provider: "local" as const };
const cloudflare = readImageSettings({ IMAGE_PROVIDER: "cloudflare", CLOUDFLARE_IMAGES_ACCOUNT_HASH: "Vi7a_h4sh-123" });

describe("resolveImage", () => {
  it("checks the provider before the preset", () => {
    expect(() => resolveImage({ src: "a.png", provider: "imgix", preset: "nope" }, local, manifest)).toThrow("Unknown provider: imgix");
    expect(() => resolveImage({ src: "a.png", preset: "nope" }, local, manifest)).toThrow("Unknown preset: nope");
    expect(() => resolveImage({ src: 42 }, local, manifest)).toThrow("input must be a string (received number: 42)");
  });

  it("sizes a preset from the local variants, snapping up to generated widths", () => {
    const image = resolveImage({ src: "products/shape.svg", preset: "packshot" }, local, manifest);
    expect(image.sizes).toBe("(max-width: 854px) 128px, 160px");
    expect(image.srcSet).toBe(
      "/assets/images/products/shape-1234abcd-160.webp 128w, /assets/images/products/shape-1234abcd-160.webp 160w, " +
        "/assets/images/products/shape-1234abcd-320.webp 256w, /assets/images/products/shape-1234abcd-320.webp 320w",
    );
    expect(image.src).toBe("/assets/images/products/shape-1234abcd-320.webp");
    expect([image.width, image.height]).toEqual([160, 160]);
  });

  it("builds Cloudflare Images URLs with gamma 0 and falls back to local for unmapped files", () => {
    const image = resolveImage({ src: "products/shape.svg", width: 300, height: 200 }, cloudflare, manifest);
    expect(image.srcSet).toBe(
      "https://imagedelivery.net/Vi7a_h4sh-123/b6f0c2e4-shape-packshot/w=300,h=200,fit=cover,f=webp,gamma=0 1x, " +
        "https://imagedelivery.net/Vi7a_h4sh-123/b6f0c2e4-shape-packshot/w=600,h=400,fit=cover,f=webp,gamma=0 2x",
    );
    const unmapped = resolveImage({ src: "products/unknown.svg", width: 300 }, cloudflare, manifest);
    expect(unmapped.src).toBe("products/unknown.svg");
  });

  it("gives the local placeholder, or a tiny blurred provider URL", () => {
    expect(resolveImage({ src: "products/shape.svg", width: 100, placeholder: true }, local, manifest).placeholder).toBe(
      "data:image/webp;base64,AAAA",
    );
    expect(resolveImage({ src: "products/shape.svg", width: 100, placeholder: true }, cloudflare, manifest).placeholder).toBe(
      "https://imagedelivery.net/Vi7a_h4sh-123/b6f0c2e4-shape-packshot/w=10,h=10,fit=cover,q=50,f=webp,blur=3,gamma=0",
    );
  });

  it("passes data URLs and empty sources through", () => {
    expect(resolveImage({ src: "data:image/png;base64,xx" }, local, manifest).src).toBe("data:image/png;base64,xx");
    expect(resolveImage({ src: "" }, local, manifest).src).toBe("");
  });
});

describe("cloudflareProvider", () => {
  const build = cloudflareProvider("hash_1234567", { "a.png": "img-1" }, () => "local");
  it.each([
    [{}, "https://imagedelivery.net/hash_1234567/img-1/public"],
    [{ width: undefined, height: undefined }, "https://imagedelivery.net/hash_1234567/img-1/public"],
    [{ width: 200 }, "https://imagedelivery.net/hash_1234567/img-1/w=200,f=auto,gamma=0"],
    [{ format: "avif", quality: 70 }, "https://imagedelivery.net/hash_1234567/img-1/q=70,f=avif,gamma=0"],
    [{ width: 50, background: "#ffffff", fit: "contain" as const }, "https://imagedelivery.net/hash_1234567/img-1/w=50,fit=contain,f=auto,background=%23ffffff,gamma=0"],
  ])("%j → %s", (modifiers, url) => {
    expect(build("a.png", modifiers)).toBe(url);
  });
});

describe("localProvider", () => {
  it("serves unknown sources as they are and the widest variant when no width is asked", () => {
    const build = localProvider(manifest);
    expect(build("/favicon.svg", { width: 10 })).toBe("/favicon.svg");
    expect(build("products/shape.svg", {})).toBe("/assets/images/products/shape-1234abcd-960.webp");
    expect(build("products/shape.svg", { width: 5000 })).toBe("/assets/images/products/shape-1234abcd-960.webp");
  });
});

describe("readImageSettings", () => {
  it.each([
    [{}, { provider: "local" }],
    [{ IMAGE_PROVIDER: "local" }, { provider: "local" }],
    [
      { IMAGE_PROVIDER: "cloudflare", CLOUDFLARE_IMAGES_ACCOUNT_HASH: "Vi7a_h4sh-123" },
      { provider: "cloudflare", accountHash: "Vi7a_h4sh-123", imageIds: expect.objectContaining({ "products/shape.svg": "b6f0c2e4-shape-packshot" }) },
    ],
  ])("%j → %j", (env, settings) => {
    expect(readImageSettings(env)).toEqual(settings);
  });

  it.each([
    [{ IMAGE_PROVIDER: "imgix" }, "Unknown provider: imgix"],
    [{ IMAGE_PROVIDER: "cloudflare" }, "CLOUDFLARE_IMAGES_ACCOUNT_HASH must be set"],
    [{ IMAGE_PROVIDER: "cloudflare", CLOUDFLARE_IMAGES_ACCOUNT_HASH: "<x>" }, "CLOUDFLARE_IMAGES_ACCOUNT_HASH must be set"],
  ])("%j is refused", (env, message) => {
    expect(() => readImageSettings(env)).toThrow(message);
  });
});
