import { spawnSync } from "node:child_process";
import type { Page } from "playwright-core";
import { freshRateWindow } from "./rate-window";

/** Adds an operator the way the README says, through `npm run admin -- add-user` with the password on standard input. */
export function addOperator(env: Record<string, string>, email: string, role: string, password: string) {
  return spawnSync(process.execPath, ["scripts/admin.mjs", "add-user", email, "--role", role], { input: `${password}\n`, env: { ...process.env, ...env }, encoding: "utf8" });
}

/**
 * Fills and sends the back office's login form of the server at `origin` and waits for the answer.
 * A test file logs in more often than the limit of login posts per address and minute allows an
 * attacker: when the store answers 429, this waits for the next minute and sends the form again.
 */
export async function logIn(page: Page, origin: string, email: string, password: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.goto(`${origin}/admin`);
    await page.locator('input[autocomplete="username"]').fill(email);
    await page.locator('input[autocomplete="current-password"]').fill(password);
    const answer = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === "/admin/login");
    await page.getByRole("button", { name: "Log in" }).click();
    if ((await answer).status() !== 429 || attempt === 2) break;
    await freshRateWindow();
  }
  await page.waitForLoadState();
}
