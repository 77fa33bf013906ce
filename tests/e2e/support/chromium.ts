import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";

export function chromiumPath(): string {
  return process.env.CHROME_PATH || "/usr/bin/chromium";
}

/** Stops the browser tests early, saying how to get a browser, when none is installed. */
export function assertChromiumInstalled(): void {
  const path = chromiumPath();
  if (existsSync(path)) return;
  throw new Error(
    `Chromium was not found at ${path}. Install it with \`sudo apt-get install chromium\` (Debian/Ubuntu), ` +
      "or set CHROME_PATH to the Chromium or Chrome executable.",
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/**
 * Opens a URL and waits until React has hydrated the page, its footer too (which hydrates from a
 * chunk of its own), so clicks are handled by the app.
 */
export async function openHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
  await page.waitForFunction(() => !document.querySelector('[data-testid="site-footer"]:not([data-hydrated])'));
}

export interface PageSession {
  /** The page of the running test. */
  readonly page: Page;
  /** Console errors and uncaught exceptions the page reported during the test. */
  readonly problems: string[];
}

/**
 * One Chromium per test file and a fresh page per test, registered as Vitest hooks. Console
 * errors (CSP violations among them) are collected for tests that assert a clean page.
 */
export function openPageSession(
  viewport: { width: number; height: number },
  options: { bypassCSP?: boolean } = {},
): PageSession {
  let browser: Browser | undefined;
  const session = { page: undefined as unknown as Page, problems: [] as string[] };
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    if (!browser) throw new Error("Chromium did not start");
    session.page = await browser.newPage({ viewport, bypassCSP: options.bypassCSP ?? false });
    session.problems.length = 0;
    session.page.on("console", (message) => {
      if (message.type() === "error") session.problems.push(message.text());
    });
    session.page.on("pageerror", (error) => session.problems.push(error.message));
  });
  afterEach(async () => {
    await session.page?.close();
  });
  return session;
}
