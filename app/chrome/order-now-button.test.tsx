// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WithStorefront } from "../test-support/storefront";
import { OrderNowButton, type OrderNowButtonProps } from "./order-now-button";

function renderButton(props: OrderNowButtonProps, path = "/summary?src=v3") {
  const router = createMemoryRouter(
    [
      {
        id: "summary",
        path: "/summary",
        element: (
          <WithStorefront country="FR">
            <OrderNowButton {...props} />
            <section id="products" tabIndex={-1} />
          </WithStorefront>
        ),
      },
      { path: "*", element: <p>elsewhere</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(cleanup);

describe("OrderNowButton", () => {
  it("shows the translated order-now text by default and links to the order-now table's target", () => {
    renderButton({});
    const button = screen.getByTestId("order-now");
    expect(button.textContent).toBe("Commander maintenant");
    expect(button.getAttribute("href")).toBe("/get/fr?src=v3");
  });

  it("takes a label of its own", () => {
    renderButton({ label: "Je commande" });
    expect(screen.getByTestId("order-now").textContent).toBe("Je commande");
  });

  it("is disabled and busy with a spinner while loading, and does nothing", () => {
    const router = renderButton({ loading: true });
    const button = screen.getByTestId("order-now") as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute("aria-busy")).toBe("true");
    expect(button.querySelector(".spinner")).not.toBeNull();
    fireEvent.click(button);
    expect(router.state.location.pathname).toBe("/summary");
  });

  it("does nothing when not clickable", () => {
    const router = renderButton({ clickable: false });
    const button = screen.getByTestId("order-now");
    expect(button.getAttribute("aria-disabled")).toBe("true");
    expect(button.getAttribute("href")).toBeNull();
    fireEvent.click(button);
    expect(router.state.location.pathname).toBe("/summary");
  });

  it("scrolls to the products section when not navigating", () => {
    const scrollIntoView = vi.fn();
    window.HTMLElement.prototype.scrollIntoView = scrollIntoView;
    window.matchMedia = vi.fn().mockReturnValue({ matches: true }) as unknown as typeof window.matchMedia;
    renderButton({ navigate: false });
    fireEvent.click(screen.getByTestId("order-now"));
    expect(scrollIntoView).toHaveBeenCalledWith({ behavior: "auto", block: "start" });
    expect(document.activeElement?.id).toBe("products");
  });
});
