// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WithStorefront } from "../test-support/storefront";
import { RatingSummary } from "./rating-summary";
import type { RatingSummariesData } from "./review-section-data";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const policyLink = { href: "/review-policy/gb", label: "How reviews are checked" };

function answering(summary: RatingSummariesData) {
  const fetch = vi.fn(() => Promise.resolve(Response.json(summary)));
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

describe("the rating summary", () => {
  it("stays an empty box while no review is published", async () => {
    const fetch = answering({ overall: null, products: {}, policyLink });
    render(
      <WithStorefront country="GB">
        <RatingSummary />
      </WithStorefront>,
    );
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledWith("/reviews/gb", expect.anything()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByTestId("rating-summary").childNodes).toHaveLength(0);
  });

  it("shows the stars and the linked label once the summary has arrived", async () => {
    answering({ overall: { label: "4.5 out of 5, 12 reviews", averageValue: 4.5 }, products: {}, policyLink });
    render(
      <WithStorefront country="GB">
        <RatingSummary />
      </WithStorefront>,
    );
    const link = await screen.findByRole("link", { name: "4.5 out of 5, 12 reviews" });
    expect(link.getAttribute("href")).toBe("/review-policy/gb");
    expect(screen.getByTestId("rating-summary").querySelector(".stars__filled")?.getAttribute("style")).toContain("width: 90%");
  });
});
