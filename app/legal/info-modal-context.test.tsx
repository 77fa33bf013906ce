// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import legalTexts from "../../content/legal/en_GB.json";
import danish from "../../content/messages/da_DK.json";
import { WithStorefront } from "../test-support/storefront";
import type { CountryCode } from "../market/markets";
import { InfoModalProvider, useOpenInfoModal } from "./info-modal-context";
import type { ModalSection } from "./legal-texts";

function Opener({ section }: { section: ModalSection }) {
  const open = useOpenInfoModal();
  return (
    <button type="button" onClick={() => open(section)}>
      open {section}
    </button>
  );
}

// Fetched texts are cached per locale for the page's life, so each test uses a market of its own.
function renderModal(section: ModalSection, country: CountryCode) {
  const router = createMemoryRouter(
    [
      {
        id: "upsell",
        path: "/upsell",
        element: (
          <WithStorefront country={country}>
            <InfoModalProvider>
              <Opener section={section} />
            </InfoModalProvider>
          </WithStorefront>
        ),
      },
    ],
    { initialEntries: ["/upsell"] },
  );
  render(<RouterProvider router={router} />);
}

// The dialog is a lazy chunk; transforming it on first use can take seconds on a busy machine,
// which belongs to no single test.
beforeAll(async () => {
  await import("./info-modal-dialog");
}, 30_000);

beforeEach(() => {
  // jsdom has no modal dialogs of its own.
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute("open", "");
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute("open");
    this.dispatchEvent(new Event("close"));
  };
  vi.stubGlobal("fetch", vi.fn(async () => Response.json(legalTexts)));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("information modal sections", () => {
  it("claimOffer shows the visitor's own welcome code, issued when the section opens", async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) =>
      url === "/welcome-code" && init?.method === "POST" ? Response.json({ code: "HELLOWXYZ2345", validUntil: "2026-03-31T10:00:00.000Z" }) : Response.json(legalTexts),
    );
    vi.stubGlobal("fetch", fetchMock);
    renderModal("claimOffer", "GB");
    await act(async () => fireEvent.click(screen.getByText("open claimOffer")));
    const panel = await screen.findByTestId("info-modal", {}, { timeout: 5000 });
    expect(panel.getAttribute("data-section")).toBe("claimOffer");
    expect((await screen.findByTestId("welcome-code")).textContent).toBe("HELLOWXYZ2345");
    expect(fetchMock.mock.calls.filter(([url]) => url === "/welcome-code")).toHaveLength(1);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe(legalTexts.claimOffer.title);
  });

  it("cancelOffer shows the thank-you text and no legal navigation", async () => {
    renderModal("cancelOffer", "SE");
    await act(async () => fireEvent.click(screen.getByText("open cancelOffer")));
    expect(await screen.findByText(legalTexts.cancelOffer.paragraphs[0] as string, {}, { timeout: 5000 })).toBeDefined();
    expect(screen.queryByRole("navigation")).toBeNull();
  });

  it("says so and offers a retry when the texts cannot be loaded", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("", { status: 503 })));
    renderModal("privacy", "DK");
    await act(async () => fireEvent.click(screen.getByText("open privacy")));
    expect((await screen.findByRole("alert", {}, { timeout: 5000 })).textContent).toContain(danish["modal.loadFailed"]);
    vi.stubGlobal("fetch", vi.fn(async () => Response.json(legalTexts)));
    await act(async () => fireEvent.click(screen.getByText(danish["modal.retry"])));
    expect(await screen.findByText(legalTexts.privacy.paragraphs[0] as string)).toBeDefined();
  });
});
