// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import german from "../../content/messages/de_DE.json";

const issued = (code: string) => Response.json({ code, validUntil: "2026-03-31T10:00:00.000Z" });

/**
 * A fresh page view: the module is loaded anew (as after a reload), while sessionStorage stays
 * that of the tab. The storefront context is loaded with it, so both share one React context.
 */
async function openClaim() {
  vi.resetModules();
  const [{ WelcomeCodeClaim }, { WithStorefront }] = await Promise.all([import("./welcome-code-claim"), import("../test-support/storefront")]);
  return render(
    <WithStorefront country="DE">
      <WelcomeCodeClaim />
    </WithStorefront>,
  );
}

let fetchMock: Mock<typeof fetch>;
beforeEach(() => {
  sessionStorage.clear();
  vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-03-01T10:00:00Z") });
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal("fetch", fetchMock);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("the welcome code in the claim section", () => {
  it("shows a neutral placeholder until the code is issued, then the visitor's code", async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    await openClaim();
    expect(screen.getByTestId("welcome-code-pending").textContent).toBe(german["modal.welcomeCodePending"]);
    expect(screen.queryByTestId("welcome-code")).toBeNull();
    await act(async () => answer(issued("HELLOABCD2345")));
    expect((await screen.findByTestId("welcome-code")).textContent).toBe("HELLOABCD2345");
    expect(screen.queryByTestId("welcome-code-pending")).toBeNull();
    expect(fetchMock).toHaveBeenCalledWith("/welcome-code", expect.objectContaining({ method: "POST" }));
  });

  it("says honestly that the code could not be created, shows no code, and tries again on request", async () => {
    fetchMock.mockResolvedValueOnce(new Response("Too many requests", { status: 429 }));
    await openClaim();
    const failure = await screen.findByRole("alert");
    expect(failure.textContent).toContain(german["modal.welcomeCodeFailed"]);
    expect(screen.queryByTestId("welcome-code")).toBeNull();
    expect(document.body.textContent).not.toMatch(/HELLO|WELCOME/);
    fetchMock.mockResolvedValueOnce(issued("HELLOEFGH6789"));
    await act(async () => fireEvent.click(screen.getByText(german["modal.retry"])));
    expect((await screen.findByTestId("welcome-code")).textContent).toBe("HELLOEFGH6789");
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("does not take an answer that is not a code for one", async () => {
    fetchMock.mockResolvedValueOnce(Response.json({ code: "" }));
    await openClaim();
    expect((await screen.findByRole("alert")).textContent).toContain(german["modal.welcomeCodeFailed"]);
  });

  it("issues one code per tab: reopening, and a new page view in the same tab, show the same code", async () => {
    fetchMock.mockImplementation(async () => issued(`HELLOSAME${fetchMock.mock.calls.length}234`));
    const first = await openClaim();
    expect((await screen.findByTestId("welcome-code")).textContent).toBe("HELLOSAME1234");
    first.unmount();
    await openClaim();
    expect((await screen.findByTestId("welcome-code")).textContent).toBe("HELLOSAME1234");
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("asks for a new code when the tab's code has expired", async () => {
    sessionStorage.setItem("vitanor:welcome-code", JSON.stringify({ code: "HELLOOLD22222", validUntil: "2026-02-28T10:00:00.000Z" }));
    fetchMock.mockResolvedValueOnce(issued("HELLONEW33333"));
    await openClaim();
    expect((await screen.findByTestId("welcome-code")).textContent).toBe("HELLONEW33333");
  });
});
