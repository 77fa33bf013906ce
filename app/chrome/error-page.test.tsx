// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WithStorefront } from "../test-support/storefront";
import { ErrorPage } from "./error-page";

afterEach(cleanup);

function Crash(): never {
  throw new Error("render failed");
}

describe("unhandled errors", () => {
  it("show the not-found page with the try-today button, never a blank screen or a stack trace", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const router = createMemoryRouter(
      [
        {
          path: "/thankyou",
          element: <Crash />,
          errorElement: (
            <WithStorefront country="IT">
              <ErrorPage message={undefined} />
            </WithStorefront>
          ),
        },
      ],
      { initialEntries: ["/thankyou?utm_source=mail"] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByTestId("not-found")).toBeDefined();
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBeTruthy();
    expect(screen.getByTestId("try-today").getAttribute("href")).toBe("/offer?utm_source=mail");
    expect(document.body.textContent).not.toContain("render failed");
  });

  it("fall back to the original English wording when no market could be resolved", () => {
    const router = createMemoryRouter([{ path: "/", element: <ErrorPage message="Page Not Found: /x" /> }]);
    render(<RouterProvider router={router} />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Page Not Found: /x");
    expect(screen.getByTestId("try-today").textContent).toBe("Try today");
  });
});
