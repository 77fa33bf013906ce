// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WithStorefront } from "../test-support/storefront";
import { Countdown, type CountdownSource } from "./countdown";
import { formatMinutesSeconds } from "./countdown-clock";

// Friday 27 November 2026, 11:00 in Berlin; the cut-off is 14:00 there (13:00 UTC).
const start = Date.parse("2026-11-27T10:00:00Z");
const rule = { cutoff: "14:00", workingDays: [1, 2, 3, 4, 5], closedDays: [] };

function renderTimer(source: Partial<CountdownSource> = {}, path = "/offer") {
  const full: CountdownSource = { pricedAt: start, offerEndsAt: null, dispatch: { rule, timeZone: "Europe/Berlin" }, ...source };
  const page = (
    <WithStorefront country="DE">
      <Countdown source={full} />
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
const cutoff = Date.parse("2026-11-27T13:00:00Z");
const expected = () => formatMinutesSeconds(cutoff - Date.now());
const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
const loaded = () => act(() => vi.advanceTimersByTime(3_100)); // the page's load wait, then idle

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(start);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("Countdown", () => {
  it("counts to today's dispatch cut-off, minutes past 59, ticking every second", () => {
    renderTimer();
    expect(shown()).toBe("180:00");
    expect(screen.getByTestId("countdown").textContent).toContain("dann verschicken wir Ihre Bestellung heute");
    loaded();
    advance(1_000);
    expect(shown()).toBe("179:56");
  });

  it("at the cut-off stops, blinks and moves the promise to the next working day", () => {
    vi.setSystemTime(Date.parse("2026-11-27T12:59:57Z"));
    renderTimer({ pricedAt: Date.parse("2026-11-27T12:59:57Z") });
    expect(shown()).toBe("00:03");
    advance(5_000);
    expect(shown()).toBe("00:00");
    const countdown = screen.getByTestId("countdown");
    expect(countdown.hasAttribute("data-expired")).toBe(true);
    expect(countdown.textContent).toContain("Bestellungen ab jetzt verschicken wir am nächsten Werktag");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("counts to a reduction's end when it comes first, and says the regular prices apply at zero", () => {
    renderTimer({ offerEndsAt: start + 30 * 60_000 });
    expect(shown()).toBe("30:00");
    expect(screen.getByTestId("countdown").textContent).toContain("Der Angebotspreis endet in");
    loaded();
    advance(30 * 60_000);
    expect(shown()).toBe("00:00");
    expect(screen.getByTestId("countdown").textContent).toContain("es gelten die regulären Preise");
  });

  it("counts from the browser's clock, not from the moment the page was rendered", () => {
    renderTimer({ pricedAt: start - 60 * 60_000 });
    loaded();
    expect(shown()).toBe(expected());
  });

  it("has no timer after the cut-off, only when orders ship", () => {
    vi.setSystemTime(Date.parse("2026-11-27T15:00:00Z"));
    renderTimer({ pricedAt: Date.parse("2026-11-27T15:00:00Z") });
    expect(screen.queryByRole("timer")).toBeNull();
    expect(screen.getByTestId("countdown").textContent).toBe("Bestellungen ab jetzt verschicken wir am nächsten Werktag");
  });

  it("continues toward the same deadline after a route change, restarting 100 ms later", async () => {
    const { router } = renderTimer();
    loaded();
    advance(1_900);
    await act(() => router.navigate("/upsell"));
    expect(shown()).toBe(expected());
    expect(vi.getTimerCount()).toBe(1); // only the pending restart: no interval ticks yet
    advance(1_100);
    expect(shown()).toBe(expected());
    expect(vi.getTimerCount()).toBe(1);
  });

  it("is not restarted by a reload: the deadline is the store's, not the visitor's", () => {
    const first = renderTimer();
    loaded();
    advance(30_000);
    first.view.unmount();
    renderTimer({ pricedAt: Date.now() });
    advance(100);
    expect(shown()).toBe(expected());
  });
});
