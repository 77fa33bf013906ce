// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { createMemoryRouter, Outlet, RouterProvider, useMatches } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PageViewBeacon } from "./page-view-beacon";

function Root() {
  const routeName = useMatches().at(-1)?.id ?? "not-found";
  return (
    <>
      <Outlet />
      <PageViewBeacon routeName={routeName} market="CH-FR" />
    </>
  );
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        id: "root",
        element: <Root />,
        children: [
          { id: "take-2", path: "/take/:locale", element: <p>take</p> },
          { id: "offer-2", path: "/offer/:locale", element: <p>offer</p> },
          { id: "terms-2", path: "/terms/:locale", element: <p>terms</p> },
          { id: "summarypop-2", path: "/summarypop/:locale", element: <p>summary</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const beacon = vi.fn<(url: string, body: URLSearchParams) => boolean>();
const sent = () => beacon.mock.calls.map(([url, body]) => `${url} ${body.toString()}`);

beforeEach(() => {
  beacon.mockReset().mockReturnValue(true);
  Object.defineProperty(navigator, "sendBeacon", { value: beacon, configurable: true });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("PageViewBeacon", () => {
  it("sends the step, the market, the variant and the path the visit landed on once per funnel page, and nothing else", async () => {
    window.history.replaceState(null, "", "/take/ch-fr?src=v2&email=a%40example.com");
    const router = renderAt("/take/ch-fr?src=v2&email=a%40example.com");
    expect(sent()).toEqual(["/funnel-view step=offer&market=CH-FR&src=v2&land=%2Ftake%2Fch-fr"]);
    await act(() => router.navigate("/offer/ch-fr?src=v2"));
    expect(sent()).toHaveLength(2);
  });

  it("counts a path once, whatever its query does, and skips pages that are not funnel steps", async () => {
    window.history.replaceState(null, "", "/summarypop/fr");
    const router = renderAt("/summarypop/fr");
    await act(() => router.navigate("/summarypop/fr?step=bundle"));
    expect(sent()).toEqual(["/funnel-view step=summary&market=CH-FR&src=&land=%2Fsummarypop%2Ffr"]);
    await act(() => router.navigate("/terms/fr"));
    expect(sent()).toHaveLength(1);
  });

  it("posts with keepalive when the browser has no beacon or refuses it", () => {
    beacon.mockReturnValue(false);
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal("fetch", fetch);
    window.history.replaceState(null, "", "/offer/fr");
    renderAt("/offer/fr");
    expect(fetch).toHaveBeenCalledWith("/funnel-view", expect.objectContaining({ method: "POST", keepalive: true }));
  });
});
