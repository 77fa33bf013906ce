// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WithStorefront } from "../test-support/storefront";
import { storageKey } from "./countdown-clock";
import { Countdown } from "./countdown";

const start = new Date("2026-11-21T10:00:00Z").getTime();

function renderTimer(path = "/offer") {
  const page = (
    <WithStorefront>
      <Countdown offerId="shape" minutes={15} />
    </WithStorefront>
  );
  const router = createMemoryRouter(
    [
      { path: "/offer", element: page },
      { path: "/upsell", element: page },
    ],
    { initialEntries: [path] },
  );
  const view = render(<RouterProvider router={router} />);
  return { router, view };
}

const shown = () => screen.getByRole("timer").textContent;
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(start);
  window.localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("Countdown", () => {
  it("starts a 15-minute window and ticks every second", () => {
    renderTimer();
    expect(shown()).toBe("15:00");
    advance(1100);
    expect(shown()).toBe("14:59");
    advance(60_000);
    expect(shown()).toBe("13:59");
    expect(window.localStorage.getItem(storageKey("shape"))).toBe(String(start + 15 * 60_000));
  });

  it("stops at zero and marks itself expired", () => {
    window.localStorage.setItem(storageKey("shape"), String(start + 2_000));
    renderTimer();
    advance(100);
    expect(shown()).toBe("00:02");
    expect(screen.getByTestId("countdown").hasAttribute("data-expired")).toBe(false);
    advance(2_000);
    expect(shown()).toBe("00:00");
    expect(screen.getByTestId("countdown").hasAttribute("data-expired")).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("continues toward the same deadline after a route change, restarting 100 ms later", async () => {
    const { router } = renderTimer();
    advance(5_100);
    expect(shown()).toBe("14:55");
    await act(() => router.navigate("/upsell"));
    expect(shown()).toBe("14:55");
    advance(99);
    expect(vi.getTimerCount()).toBe(1); // only the pending restart: no interval ticks yet
    advance(1);
    advance(999);
    expect(shown()).toBe("14:55");
    advance(1);
    expect(shown()).toBe("14:54");
  });

  it("is not reset by a reload", () => {
    const first = renderTimer();
    advance(30_100);
    first.view.unmount();
    renderTimer();
    advance(100);
    expect(shown()).toBe("14:30");
  });
});
