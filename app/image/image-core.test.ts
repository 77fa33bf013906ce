import { describe, expect, it } from "vitest";
import {
  checkSource,
  crossOrigin,
  emptyDensitiesMessage,
  parseDensities,
  parseSize,
  placeholderModifiers,
  resolveDensities,
  sizeImage,
  type ImageModifiers,
} from "./image-core";

/** A provider that writes the modifiers it gets, as the reference's examples do (`w300,h200`). */
const echo = (_src: string, modifiers: ImageModifiers) =>
  [modifiers.width && `w${modifiers.width}`, modifiers.height && `h${modifiers.height}`].filter(Boolean).join(",");

describe("checkSource", () => {
  it.each([
    [123, "input must be a string (received number: 123)"],
    [{ a: 1 }, 'input must be a string (received object: {"a":1})'],
    [true, "input must be a string (received boolean: true)"],
  ])("refuses %j", (input, message) => {
    expect(() => checkSource(input)).toThrow(new TypeError(message));
  });

  it.each([undefined, null, "", "data:image/png;base64,xx", "/images/a.png"])("lets %j through", (input) => {
    expect(() => checkSource(input)).not.toThrow();
  });
});

describe("parseSize", () => {
  it.each([
    [300, 300],
    ["300", 300],
    ["300px", 300],
    ["30.5", undefined],
    ["10em", undefined],
    ["", undefined],
    [undefined, undefined],
  ])("%j is %j", (input, size) => {
    expect(parseSize(input)).toBe(size);
  });
});

describe("densities", () => {
  it.each([
    ["1x 2x", [1, 2]],
    ["x1 x2", [1, 2]],
    ["1x 0x 2x 2x 1x", [1, 2]],
    ["1,2", [1]],
    ["3", [3]],
  ])("%j is %j", (input, densities) => {
    expect(parseDensities(input)).toEqual(densities);
  });

  it("falls back to the global default when nothing is left", () => {
    expect(resolveDensities("0x")).toEqual([1, 2]);
    expect(resolveDensities(undefined)).toEqual([1, 2]);
  });

  it("refuses an empty result", () => {
    expect(() => resolveDensities("", [])).toThrow(emptyDensitiesMessage);
    expect(emptyDensitiesMessage).toBe("`densities` must not be empty, configure to `1` to render regular size only (DPR 1.0)");
  });
});

describe("sizeImage", () => {
  it("computes the reference example", () => {
    const image = sizeImage("/a.png", { width: 800, height: 600, densities: "1x 2x", sizes: "xs:100vw md:50vw lg:400px" }, echo);
    expect(image.sizes).toBe("(max-width: 854px) 100vw, (max-width: 1025px) 50vw, 400px");
    expect(image.srcset).toBe(
      "w400,h300 400w, w427,h320 427w, w475,h356 475w, w800,h600 800w, w854,h640 854w, w950,h712 950w",
    );
    expect(image.src).toBe("w950,h712");
  });

  it("writes density descriptors without sizes", () => {
    const image = sizeImage("/a.png", { width: 300, height: 200 }, echo);
    expect(image.srcset).toBe("w300,h200 1x, w600,h400 2x");
    expect(image.sizes).toBeUndefined();
    expect(image.src).toBe("w600,h400");
  });

  it("reads plain digits as pixels and keeps the height when only one is given", () => {
    const image = sizeImage("/a.png", { height: 100, sizes: "sm:320 lg:640", densities: "1x" }, echo);
    expect(image.sizes).toBe("(max-width: 1025px) 320px, 640px");
    expect(image.srcset).toBe("w320,h100 320w, w640,h100 640w");
  });
});

describe("placeholder", () => {
  it.each([
    [true, { width: 10, height: 10, quality: 50, blur: 3 }],
    [20, { width: 20, height: 20, quality: 50, blur: 3 }],
    [[30, 20, 70, 5], { width: 30, height: 20, quality: 70, blur: 5 }],
    [[30, 20, 0, 0], { width: 30, height: 20, quality: 50, blur: 3 }],
    [false, undefined],
  ] as const)("%j gives %j", (input, modifiers) => {
    expect(placeholderModifiers(input)).toEqual(modifiers);
  });
});

describe("crossOrigin", () => {
  it.each([
    [true, "anonymous"],
    ["anonymous", "anonymous"],
    ["use-credentials", "use-credentials"],
    ["", undefined],
    [false, undefined],
  ] as const)("%j is %j", (input, value) => {
    expect(crossOrigin(input)).toBe(value);
  });
});
