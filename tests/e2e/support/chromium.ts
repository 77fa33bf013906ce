import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";

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

/** Opens a URL and waits until React has hydrated the page, so clicks are handled by the app. */
export async function openHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector("html[data-hydrated]");
}
