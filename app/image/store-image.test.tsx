// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WithStorefront } from "../test-support/storefront";
import { StoreImage } from "./store-image";

/** jsdom loads no images: a stand-in that lets a test decide when the real image arrives. */
class ControlledImage {
  static last: ControlledImage | undefined;
  onload: ((event: Event) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  src = "";
  srcset = "";
  sizes = "";
  constructor() {
    ControlledImage.last = this;
  }
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("StoreImage", () => {
  it("shows the blurred placeholder, swaps in the real image on load and reports load once", () => {
    vi.stubGlobal("Image", ControlledImage);
    const onLoad = vi.fn();
    render(
      <WithStorefront>
        <StoreImage src="products/shape.svg" preset="packshot" alt="Vitanor Shape" placeholder onLoad={onLoad} />
      </WithStorefront>,
    );
    const img = screen.getByRole("img") as HTMLImageElement;
    expect(img.getAttribute("src")).toMatch(/^data:image\/webp;base64,/);
    expect(img.getAttribute("srcset")).toBeNull();
    expect(img.getAttribute("loading")).toBe("lazy");
    expect([img.getAttribute("width"), img.getAttribute("height")]).toEqual(["160", "160"]);
    act(() => ControlledImage.last?.onload?.(new Event("load")));
    expect(img.getAttribute("src")).toMatch(/^\/assets\/images\/products\/shape-\w+-320\.webp$/);
    expect(img.getAttribute("srcset")).toContain("128w");
    expect(onLoad).toHaveBeenCalledTimes(1);
  });

  it("passes an error to the caller", () => {
    const onError = vi.fn();
    render(
      <WithStorefront>
        <StoreImage src="products/shape.svg" preset="packshot" alt="Vitanor Shape" onError={onError} />
      </WithStorefront>,
    );
    fireEvent.error(screen.getByRole("img"));
    fireEvent.error(screen.getByRole("img"));
    expect(onError).toHaveBeenCalledTimes(1);
  });

  it("makes the priority image eager and high priority", () => {
    render(
      <WithStorefront>
        <StoreImage src="products/shape.svg" preset="hero" alt="Vitanor Shape" priority />
      </WithStorefront>,
    );
    const img = screen.getByRole("img");
    expect(img.getAttribute("loading")).toBe("eager");
    expect(img.getAttribute("fetchpriority")).toBe("high");
  });
});
