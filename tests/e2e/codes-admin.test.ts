import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "./support/axe";
import { addOperator, logIn } from "./support/back-office";
import { launchChromium } from "./support/chromium";
import { startServer, type RunningServer } from "./support/server";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";

/**
 * Discount codes as the people who run the store manage them: an owner creates a code (a refused
 * form first, kept as typed), sees it in the list and deactivates it; support reads the list and
 * is refused when it tries to create one.
 */

const ownerPassword = "owner password 1234";
const supportPassword = "support password 1234";

describe.each(databaseKinds)("discount codes in the back office on %s", (kind) => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: RunningServer;
  let browser: Browser;
  let database: { url: string; drop(): Promise<void> } | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-codes-"));
    database = kind === "postgres" ? await createPostgresDatabase("codes_admin") : undefined;
    env = { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };
    // The embedded database takes one process at a time: operators are added before the server starts.
    expect(addOperator(env, "owner@example.com", "owner", ownerPassword).status).toBe(0);
    expect(addOperator(env, "support@example.com", "support", supportPassword).status).toBe(0);
    server = await startServer(env);
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function newPage(): Promise<Page> {
    // axe is injected as a script: the back office's policy allows none of its own.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    return context.newPage();
  }

  it("lets an owner create a code, see it listed and deactivate it", { timeout: 90_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.waitForURL(`${server.url}/admin/orders`);
    await page.goto(`${server.url}/admin/codes`);

    // A refused form says why by the field and keeps what was typed.
    await page.locator('input[name="code"]').fill("winter sale!");
    await page.locator('input[name="kind"][value="amount"]').check();
    await page.locator('input[name="amount_EUR"]').fill("5,00");
    await page.getByTestId("code-create").click();
    expect(await page.getByTestId("code-error-code").textContent()).toContain("letters (A to Z) and digits");
    expect(await page.locator('input[name="amount_EUR"]').inputValue()).toBe("5,00");
    expect(await page.locator('input[name="kind"][value="amount"]').isChecked()).toBe(true);

    await page.locator('input[name="code"]').fill("winter-5");
    await page.locator('input[name="amount_GBP"]').fill("4.5");
    await page.locator('input[name="country"][value="DE"]').check();
    await page.locator('input[name="validUntil"]').fill("2030-01-31");
    await page.locator('input[name="maxRedemptions"]').fill("100");
    expect(await page.locator('input[name="oncePerCustomer"]').isChecked()).toBe(true);
    await page.locator('input[name="firstOrderOnly"]').check();
    await page.getByTestId("code-create").click();
    await page.waitForURL(`${server.url}/admin/codes?done=created`);

    const row = page.locator('[data-testid="code-row"][data-code="WINTER5"]');
    const terms = await row.textContent();
    for (const text of ["€5.00, £4.50 off", "Markets DE", "to 2030-01-31 included", "At most 100 redemptions", "Once per customer", "First order only"]) expect(terms).toContain(text);
    expect(await row.getByTestId("code-status").textContent()).toBe("active");
    expect(await page.getByTestId("welcome-codes").textContent()).toContain("0 issued");
    expect(await seriousViolations(page)).toEqual([]);

    await row.getByTestId("code-deactivate").click();
    await page.waitForURL(`${server.url}/admin/codes?done=deactivated`);
    expect(await page.locator('[data-testid="code-row"][data-code="WINTER5"]').getByTestId("code-status").textContent()).toBe("deactivated");
    expect(await page.locator('[data-testid="code-row"][data-code="WINTER5"]').getByTestId("code-reactivate").count()).toBe(1);
    await page.context().close();
  });

  it("shows support the list and refuses it creating a code", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "support@example.com", supportPassword);
    await page.waitForURL(`${server.url}/admin/orders`);
    await page.goto(`${server.url}/admin/codes`);
    expect(await page.locator('[data-testid="code-row"][data-code="WINTER5"]').count()).toBe(1);
    expect(await page.getByTestId("code-create").count()).toBe(0);
    expect(await page.getByTestId("code-reactivate").count()).toBe(0);
    const refused = await page.request.post(`${server.url}/admin/codes`, { form: { code: "SUPPORT10", kind: "percent", percent: "10" }, headers: { origin: server.url } });
    expect(refused.status()).toBe(403);
    await page.reload();
    expect(await page.locator('[data-testid="code-row"][data-code="SUPPORT10"]').count()).toBe(0);
    await page.context().close();
  });
});
