import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import funnelTexts from "../../content/funnel/de_DE.json";
import { launchChromium, openHydrated } from "./support/chromium";
import { awayFromWindowEdge } from "./support/rate-window";
import { startServer, type RunningServer } from "./support/server";

/**
 * The welcome code as the exit-intent dialog promises it: issued to the visitor when the claim
 * section opens, the same code on reopening in that tab, and the endpoint's refusals over HTTP.
 */

const welcomeCode = /^HELLO[A-HJ-NP-Z2-9]{8}$/;

/** Each test's posts come from an address of their own, through the (trusted) local proxy. */
let nextClient = 1;
const client = () => ({ "X-Forwarded-For": `198.51.100.${nextClient++}` });

describe("the welcome code", () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    server = await startServer({ TRUST_PROXY: "loopback" });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** The pointer leaves through the top of the window, as when reaching for the tab bar. */
  async function leaveThroughTheTop(page: Page): Promise<void> {
    // The dialog's code loads after the page; the pointer leaves again until it is listening.
    await page.waitForFunction(() => {
      document.dispatchEvent(new MouseEvent("mouseout", { bubbles: true, clientY: 0, relatedTarget: null }));
      return document.querySelector('[data-testid="exit-intent"]') !== null;
    });
  }

  async function claimCode(page: Page): Promise<string> {
    await leaveThroughTheTop(page);
    await page.getByTestId("exit-intent").getByRole("button", { name: funnelTexts.exitIntent.accept }).click();
    const code = page.getByTestId("welcome-code");
    await code.waitFor();
    return (await code.textContent()) ?? "";
  }

  it("shows the visitor's own code when the claim section opens, and the same code when it is reopened in the tab", { timeout: 120_000 }, async () => {
    const html = await (await fetch(`${server.url}/offerexitpop/de`)).text();
    expect(html).not.toMatch(/HELLO[A-Z0-9]{8}|WELCOME10/);

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const issues: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname === "/welcome-code") issues.push(request.method());
    });
    await openHydrated(page, `${server.url}/offerexitpop/de`);
    const first = await claimCode(page);
    expect(first).toMatch(welcomeCode);

    await page.getByTestId("modal-close").click();
    // The dialog offers itself once per tab; a later page view in the same tab that brings it back shows the same code.
    await page.evaluate(() => sessionStorage.removeItem("vitanor:exit-intent-shown"));
    await openHydrated(page, `${server.url}/offerexitpop/de`);
    expect(await claimCode(page)).toBe(first);
    expect(issues).toEqual(["POST"]);

    // Another visitor (another tab's storage) gets a code of their own.
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openHydrated(other, `${server.url}/offerexitpop/de`);
    const second = await claimCode(other);
    expect(second).toMatch(welcomeCode);
    expect(second).not.toBe(first);

    // Issued codes are the visitor's alone: the server's log does not carry them.
    expect(server.output()).not.toContain(first);
    expect(server.output()).not.toContain(second);
    await page.close();
    await other.close();
  });

  it("refuses a GET, another site's post, and more than five posts a minute from one address", async () => {
    const get = await fetch(`${server.url}/welcome-code`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");

    const crossSite = await fetch(`${server.url}/welcome-code`, { method: "POST", headers: { Origin: "https://elsewhere.example", ...client() } });
    expect(crossSite.status).toBe(403);

    const from = client();
    await awayFromWindowEdge();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await fetch(`${server.url}/welcome-code`, { method: "POST", headers: { Origin: server.url, ...from } });
      statuses.push(response.status);
      if (response.status === 200) expect(((await response.json()) as { code: string }).code).toMatch(welcomeCode);
      else await response.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
  });
});
