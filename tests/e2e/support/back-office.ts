import { spawnSync } from "node:child_process";
import type { Page } from "playwright-core";

/** Adds an operator the way the README says, through `npm run admin -- add-user` with the password on standard input. */
export function addOperator(env: Record<string, string>, email: string, role: string, password: string) {
  return spawnSync(process.execPath, ["scripts/admin.mjs", "add-user", email, "--role", role], { input: `${password}\n`, env: { ...process.env, ...env }, encoding: "utf8" });
}

/** Fills and sends the back office's login form of the server at `origin`. */
export async function logIn(page: Page, origin: string, email: string, password: string): Promise<void> {
  await page.goto(`${origin}/admin`);
  await page.locator('input[autocomplete="username"]').fill(email);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}
