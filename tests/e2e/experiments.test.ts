import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { standInToken } from "../../server/page-cache";
import { seriousViolations } from "./support/axe";
import { addOperator, logIn } from "./support/back-office";
import { fillContact, payByCard } from "./support/buyer";
import { launchChromium } from "./support/chromium";
import { startServer, type RunningServer } from "./support/server";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";

/**
 * A split test as an operator runs it (docs/decisions/0028-split-tests.md, 0035-exposure-tokens.md):
 * an owner starts `/offer` against `/offer2` in the back office (an arm at another market's prices
 * is refused), visitors are split by the server's redirect with a token per exposure, a buyer's
 * arm survives to the thank-you page and the order counts for it once, even when the arm's address
 * is copied and bought from again, and shipping sends everyone to the winner.
 */

const ownerPassword = "owner password 1234";
const supportPassword = "support password 1234";
/** A person's browser: headless Chromium says so in its user agent, and crawlers get the control. */
const personAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
const crawlerAgent = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const token = "[A-Za-z0-9_-]{36}";


describe.each(databaseKinds)("split tests on %s", (kind) => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: RunningServer;
  let browser: Browser;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let key = "";
  const assigned = new Map<string, number>();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-experiments-"));
    database = kind === "postgres" ? await createPostgresDatabase("experiments") : undefined;
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

  async function newPage(userAgent?: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, ...(userAgent ? { userAgent } : {}) });
    return context.newPage();
  }

  const visit = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { redirect: "manual", headers: { "user-agent": personAgent, ...headers } });

  it("lets an owner start a test of /offer against /offer2, refusing bad input with its reason", { timeout: 90_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.waitForURL(`${server.url}/admin/orders`);
    await page.goto(`${server.url}/admin/experiments`);
    await page.locator('input[name="name"]').fill("Offer against the advertorial");
    await page.locator('input[name="entry"]').fill("/offer");
    const paths = page.locator('input[name="armPath"]');
    const weights = page.locator('input[name="armWeight"]');
    await paths.nth(0).fill("/offer");
    await weights.nth(0).fill("50");
    await paths.nth(1).fill("/offer2");
    await weights.nth(1).fill("40");
    await page.locator('select[name="primaryMetric"]').selectOption("conversion");
    await page.getByTestId("experiment-start").click();
    expect(await page.getByTestId("experiment-errors").textContent()).toContain("The weights add up to 90, not 100.");
    // The form keeps what was typed; an arm that would show visitors another market's prices is refused with the reason.
    await page.locator('input[name="armWeight"]').nth(1).fill("50");
    await page.locator('input[name="armPath"]').nth(1).fill("/offerV7");
    await page.getByTestId("experiment-start").click();
    expect(await page.getByTestId("experiment-error").allTextContents()).toEqual([
      expect.stringMatching(/^Arm 2: \/offerV7 puts visitors from DE, GB, .* in another market than \/offer does \(one from DE gets FR instead of DE\), so they would see other prices/),
    ]);
    expect(await page.locator('select[name="primaryMetric"]').inputValue()).toBe("conversion");
    await page.locator('input[name="armPath"]').nth(1).fill("/offer2");
    await page.getByTestId("experiment-start").click();
    await page.waitForURL(/\/admin\/experiments\/[a-z0-9]{8}\?done=started$/);
    key = /experiments\/([a-z0-9]{8})/.exec(page.url())?.[1] ?? "";
    expect(await page.getByTestId("experiment-status").textContent()).toBe("Running");
    expect(await page.getByTestId("experiment-arm").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-arm")))).toEqual(["/offer", "/offer2"]);
    expect(await page.getByTestId("experiment-metric").textContent()).toBe("Conversion");
    // Each arm's bundles and prices per market, side by side: one row per market, the same currency in both arms.
    const gb = page.locator('[data-testid="offers-market"][data-market="GB"]').getByTestId("offers-arm");
    expect(await gb.count()).toBe(2);
    for (const cell of await gb.allTextContents()) expect(cell).toMatch(/£/);
    expect(await page.getByTestId("offers-market").count()).toBe(12);
    expect(await seriousViolations(page)).toEqual([]);

    // A second test of the same entry path is refused while this one runs.
    await page.goto(`${server.url}/admin/experiments`);
    await page.locator('input[name="name"]').fill("Another");
    await page.locator('input[name="armPath"]').nth(1).fill("/take2");
    await page.locator('select[name="primaryMetric"]').selectOption("revenue");
    await page.getByTestId("experiment-start").click();
    expect(await page.getByTestId("experiment-errors").textContent()).toContain('/offer is already under test in "Offer against the advertorial"');
    await page.context().close();

    // Support reads the test and cannot change it.
    const support = await newPage();
    await logIn(support, server.url, "support@example.com", supportPassword);
    await support.waitForURL(`${server.url}/admin/orders`);
    await support.goto(`${server.url}/admin/experiments/${key}`);
    expect(await support.getByTestId("experiment-ship").count()).toBe(0);
    const refused = await support.request.post(`${server.url}/admin/experiments/${key}/stop`, { headers: { origin: server.url } });
    expect(refused.status()).toBe(403);
    await support.context().close();
  });

  it("splits visitors at the entry's own address for every arm, with and without a locale, keeping the query, and no cookie before consent", async () => {
    for (let visitor = 0; visitor < 120; visitor++) {
      const path = visitor % 2 === 0 ? "/offer/fr?src=ad7&utm_source=mail" : "/offer?src=ad7";
      const response = await visit(path);
      // The arm's page itself, without a redirect: one visitor's, so no shared cache keeps it, and it names its own address.
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-cache");
      expect(response.headers.get("set-cookie")).toBeNull();
      const address = response.headers.get("content-location") ?? "";
      const match = new RegExp(`^/(offer2?)(/fr)?\\?src=ad7(&utm_source=mail)?&xp=${key}\\.([01])\\.${token}$`).exec(address);
      expect(match, address).not.toBeNull();
      expect(match?.[1]).toBe(match?.[4] === "0" ? "offer" : "offer2");
      expect(Boolean(match?.[2])).toBe(visitor % 2 === 0);
      // The page tells the browser the same address, which it shows before the router starts.
      expect(await response.text()).toContain(`data-address="${address.replaceAll("&", "&amp;")}"`);
      assigned.set(match?.[4] ?? "", (assigned.get(match?.[4] ?? "") ?? 0) + 1);
    }
    // A query no kept page is rendered for (a click id unique to one visit) still goes by a redirect.
    const clicked = await visit("/offer/fr?src=ad7&gclid=abc123");
    expect(clicked.status).toBe(302);
    expect(clicked.headers.get("cache-control")).toBe("no-store");
    const clickedArm = new RegExp(`^/offer2?/fr\\?src=ad7&gclid=abc123&xp=${key}\\.([01])\\.${token}$`).exec(clicked.headers.get("location") ?? "")?.[1];
    expect(clickedArm).toBeDefined();
    assigned.set(clickedArm ?? "", (assigned.get(clickedArm ?? "") ?? 0) + 1);
    expect(assigned.get("0")).toBeGreaterThan(30);
    expect(assigned.get("1")).toBeGreaterThan(30);

    // Carrying its arm, with or without a token, the page is served as it is; a crawler gets the control's page, uncounted.
    const served = await visit(`/offer2/fr?xp=${key}.1`);
    expect(served.status).toBe(200);
    const control = await visit(`/offer/fr?xp=${key}.0`);
    expect(control.status).toBe(200);
    // The geo page is cached once per arm, not once per visitor's token, and each answer carries only its visitor's own.
    const first = await visit(`/offer2?xp=${key}.1.${"a".repeat(36)}`, { "cf-ipcountry": "FR" });
    const second = await visit(`/offer2?xp=${key}.1.${"b".repeat(36)}`, { "cf-ipcountry": "FR" });
    expect([first.status, second.status, second.headers.get("x-cache")]).toEqual([200, 200, "hit"]);
    const secondPage = await second.text();
    expect(secondPage).toContain(`?xp=${key}.1.${"b".repeat(36)}`);
    expect(secondPage).not.toContain("a".repeat(36));
    expect(secondPage).not.toContain(standInToken);
    expect((await visit("/offer/fr", { "user-agent": crawlerAgent })).status).toBe(200);
    // After consent the arm is kept in a first-party cookie and a return visit gets the same arm.
    const consented = await visit("/offer/fr", { cookie: "vitanor_consent=granted" });
    const cookie = consented.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(new RegExp(`^vitanor_xp=${key}\\.[01]\\.${token}; Max-Age=\\d+; Path=/; HttpOnly; SameSite=Lax$`));
    const kept = (cookie.split(";")[0] ?? "").slice("vitanor_xp=".length);
    const arm = kept.split(".")[1] ?? "";
    assigned.set(arm, (assigned.get(arm) ?? 0) + 1);
    // A return visit gets the same arm and the same exposure: one visitor, counted once.
    for (let again = 0; again < 5; again++) {
      const back = await visit("/offer/fr", { cookie: `vitanor_consent=granted; vitanor_xp=${kept}` });
      expect(back.headers.get("content-location")).toBe(`${arm === "0" ? "/offer" : "/offer2"}/fr?xp=${kept}`);
    }
  });

  it("carries each visitor's own token from a cached arm page to the checkout before any script has run", { timeout: 90_000 }, async () => {
    const seen: string[] = [];
    for (let visitor = 0; visitor < 2; visitor++) {
      // A phone whose scripts have not run yet, or a browser without them: only the server's HTML counts.
      const context = await browser.newContext({ javaScriptEnabled: false, userAgent: personAgent, extraHTTPHeaders: { "cf-ipcountry": "FR" } });
      const person = await context.newPage();
      const served = await person.goto(`${server.url}/offer?src=ad7`);
      // Without scripts the address bar keeps the entry's address; the answer names the arm's.
      expect(new URL(person.url()).pathname).toBe("/offer");
      const armAddress = new URL(served?.headers()["content-location"] ?? "", server.url);
      const xp = armAddress.searchParams.get("xp") ?? "";
      expect(xp).toMatch(new RegExp(`^${key}\\.[01]\\.${token}$`));
      const arm = xp.split(".")[1] ?? "";
      assigned.set(arm, (assigned.get(arm) ?? 0) + 1);
      expect(armAddress.pathname).toBe(arm === "0" ? "/offer" : "/offer2");
      // The geo arm page comes from the page cache, kept once per arm.
      expect(["hit", "miss"]).toContain(served?.headers()["x-cache"]);
      expect(await person.content()).not.toContain(seen[0] ?? "no earlier token");
      await person.getByTestId("product-card").first().getByRole("link").click();
      await person.waitForURL((url) => url.pathname.startsWith("/checkout"));
      expect(new URL(person.url()).searchParams.get("xp")).toBe(xp);
      // Back at the entry's address, the browser shows its own copy: the same arm and token, no new assignment.
      await person.goBack();
      expect(new URL(person.url()).pathname).toBe("/offer");
      const backLink = (await person.getByTestId("product-card").first().getByRole("link").getAttribute("href")) ?? "";
      expect(new URL(backLink, server.url).searchParams.get("xp")).toBe(xp);
      seen.push(xp.split(".")[2] ?? "");
      await context.close();
    }
    expect(seen[0]).not.toBe(seen[1]);

    // With scripts, under the page's own policy: the hydration data carries the same token, so the page hydrates with no CSP error.
    const context = await browser.newContext({ userAgent: personAgent, extraHTTPHeaders: { "cf-ipcountry": "FR" } });
    const person = await context.newPage();
    const problems: string[] = [];
    person.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    person.on("pageerror", (error) => problems.push(error.message));
    await person.goto(`${server.url}/offer?src=ad7`);
    await person.waitForSelector("html[data-hydrated]");
    const xp = new URL(person.url()).searchParams.get("xp") ?? "";
    assigned.set(xp.split(".")[1] ?? "", (assigned.get(xp.split(".")[1] ?? "") ?? 0) + 1);
    const href = (await person.getByTestId("product-card").first().getByRole("link").getAttribute("href")) ?? "";
    expect(new URL(href, server.url).searchParams.get("xp")).toBe(xp);
    expect(problems).toEqual([]);
    await context.close();
  });

  /** Buys the first bundle of the page at `url` (already open and hydrated) through to the thank-you page; its order number. */
  async function buyFrom(person: Page, xp: string): Promise<string> {
    await person.getByTestId("product-card").first().getByRole("link").click();
    await person.waitForURL((url) => url.pathname === "/checkout/fr" && url.searchParams.get("xp") === xp);
    await fillContact(person);
    await payByCard(person, "4242 4242 4242 4242");
    await person.waitForURL(/\/upsell\/fr\?/);
    await person.getByTestId("upsell-decline").click();
    await person.waitForURL(/\/upsellMind\/fr\?/);
    await person.getByTestId("upsell-decline").click();
    await person.waitForURL(/\/thankyou\/fr\?/);
    // The thank-you page's address still names the arm, token and all.
    expect(new URL(person.url()).searchParams.get("xp")).toBe(xp);
    return (await person.getByTestId("order-number").textContent()) ?? "";
  }

  it("keeps a buyer's arm to the thank-you page and counts the order for it once, however often its address is copied", { timeout: 180_000 }, async () => {
    const person = await newPage(personAgent);
    await person.goto(`${server.url}/offer/fr?src=ad7`);
    await person.waitForSelector("html[data-hydrated]");
    const xp = new URL(person.url()).searchParams.get("xp") ?? "";
    expect(xp).toMatch(new RegExp(`^${key}\\.[01]\\.${token}$`));
    const arm = xp.split(".")[1] ?? "";
    assigned.set(arm, (assigned.get(arm) ?? 0) + 1);
    const armPath = arm === "0" ? "/offer" : "/offer2";
    expect(new URL(person.url()).pathname).toBe(`${armPath}/fr`);
    const armAddress = person.url();
    const counted = await buyFrom(person, xp);
    expect(counted).toMatch(/^VN-/);
    await person.context().close();

    // Someone else opens the copied address (an ad whose target was taken from the address bar) and buys.
    const copier = await newPage(personAgent);
    await copier.goto(armAddress);
    await copier.waitForSelector("html[data-hydrated]");
    expect(new URL(copier.url()).searchParams.get("xp")).toBe(xp);
    const copied = await buyFrom(copier, xp);
    await copier.context().close();
    // And someone opens the arm's address without its token.
    const paster = await newPage(personAgent);
    const bare = `${key}.${arm}`;
    await paster.goto(`${server.url}${armPath}/fr?src=ad7&xp=${bare}`);
    await paster.waitForSelector("html[data-hydrated]");
    const pasted = await buyFrom(paster, bare);
    await paster.context().close();

    const admin = await newPage();
    await logIn(admin, server.url, "owner@example.com", ownerPassword);
    await admin.waitForURL(`${server.url}/admin/orders`);
    await admin.goto(`${server.url}/admin/experiments/${key}`);
    const row = (path: string) => admin.locator(`[data-testid="experiment-arm"][data-arm="${path}"]`);
    // Exposures are counted as they are made; the count may trail the redirect by a moment.
    await expect.poll(async () => {
      await admin.reload();
      return [await row("/offer").getByTestId("arm-visitors").textContent(), await row("/offer2").getByTestId("arm-visitors").textContent()];
    }).toEqual([String(assigned.get("0") ?? 0), String(assigned.get("1") ?? 0)]);
    expect(await row(armPath).getByTestId("arm-orders").textContent()).toBe("1");
    expect(await row(arm === "0" ? "/offer2" : "/offer").getByTestId("arm-orders").textContent()).toBe("0");
    expect(await admin.getByTestId("experiment-left-out").textContent()).toMatch(/^1 order carries an arm of this test but does not count/);
    expect(await admin.getByTestId("experiment-srm").count()).toBe(0);
    // A young test waits for data: said with its unit, as information, not as an error.
    const verdict = admin.getByTestId("experiment-verdict");
    expect(await verdict.textContent()).toContain("No verdict before 7 days; the test has run 0 days so far.");
    expect(await verdict.getAttribute("class")).toBe("notice info");
    expect(await verdict.getAttribute("role")).toBeNull();
    expect(await seriousViolations(admin)).toEqual([]);

    // The order's page shows its arm; the order from the address without a token has none.
    for (const [number, shown] of [
      [counted, `${key}.${arm}`],
      [copied, `${key}.${arm}`],
      [pasted, "—"],
    ] as const) {
      await admin.goto(`${server.url}/admin/orders/${number}`);
      expect(await admin.getByTestId("order-experiment-arm").textContent()).toBe(shown);
    }

    // The funnel report takes the split-test page's default in a store in test mode: test orders included, and said so.
    await admin.goto(`${server.url}/admin/report`);
    expect(await admin.getByTestId("report-test-orders").textContent()).toContain("Test orders are included: the store is in test mode");
    expect(await admin.locator('input[type="checkbox"][name="test"]').isChecked()).toBe(true);
    const ordersPaid = async () => (await admin.getByTestId("funnel-report").locator("tbody.report-orders tr", { hasText: "Orders paid" }).locator("td").first().textContent())?.trim();
    expect(Number(await ordersPaid())).toBeGreaterThanOrEqual(1);
    const shares = await admin.getByTestId("funnel-report").locator("tbody.report-steps tr td:last-child").allTextContents();
    for (const share of shares) expect(share === "n/a" || Number.parseFloat(share) <= 100, share).toBe(true);
    await admin.locator('input[type="checkbox"][name="test"]').uncheck();
    await admin.getByRole("button", { name: "Show" }).click();
    await admin.waitForURL(/test=0/);
    expect(await ordersPaid()).toBe("0");
    expect(await admin.getByTestId("report-test-orders").count()).toBe(0);

    // The funnel report offers the running test's arms as a filter.
    await admin.goto(`${server.url}/admin/report?test=1&arm=${key}.${arm}`);
    expect(await admin.getByTestId("report-arm").inputValue()).toBe(`${key}.${arm}`);
    await admin.context().close();
  });

  it("ships the winner after a confirmation, and then sends everyone there", { timeout: 60_000 }, async () => {
    const admin = await newPage();
    await logIn(admin, server.url, "owner@example.com", ownerPassword);
    await admin.waitForURL(`${server.url}/admin/orders`);
    await admin.goto(`${server.url}/admin/experiments/${key}`);
    await admin.locator('[data-testid="experiment-arm"][data-arm="/offer2"]').getByTestId("experiment-ship").click();
    // No verdict before 7 days and 30 orders per arm: shipping asks first.
    expect(await admin.locator("h1").textContent()).toBe("Ship /offer2 before a verdict?");
    await admin.getByTestId("experiment-ship-confirm").click();
    await admin.waitForURL(/done=shipped/);
    expect(await admin.getByTestId("experiment-status").textContent()).toBe("Shipped");
    await admin.goto(`${server.url}/admin/orders`);
    await admin.context().close();

    for (const [path, location] of [
      ["/offer/fr?src=ad7", "/offer2/fr?src=ad7"],
      ["/offer", "/offer2"],
      [`/offer/fr?xp=${key}.0`, "/offer2/fr"],
    ] as const) {
      const response = await visit(path);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(location);
    }
    expect((await visit("/offer/fr", { "user-agent": crawlerAgent })).headers.get("location")).toBe("/offer2/fr");
  });
  it("refuses a test that would send visitors back round the shipped one, and ends the shipped test", { timeout: 60_000 }, async () => {
    const admin = await newPage();
    await logIn(admin, server.url, "owner@example.com", ownerPassword);
    await admin.waitForURL(`${server.url}/admin/orders`);
    await admin.goto(`${server.url}/admin/experiments`);
    await admin.locator('input[name="name"]').fill("Back to the offer");
    await admin.locator('input[name="entry"]').fill("/offer2");
    const paths = admin.locator('input[name="armPath"]');
    const weights = admin.locator('input[name="armWeight"]');
    await paths.nth(0).fill("/offer2");
    await weights.nth(0).fill("50");
    await paths.nth(1).fill("/offer");
    await weights.nth(1).fill("50");
    await admin.getByTestId("experiment-start").click();
    expect(await admin.getByTestId("experiment-errors").textContent()).toContain('/offer is the entry of "Offer against the advertorial", which is shipped');

    // The winner's page, reached with the shipped test's arm, is never sent on.
    expect((await visit(`/offer2/fr?xp=${key}.1`)).status).toBe(200);
    expect((await visit("/offer/fr", { "user-agent": personAgent })).status).toBe(302);
    const head = await fetch(`${server.url}/offer/fr`, { method: "HEAD", redirect: "manual", headers: { "user-agent": personAgent } });
    expect(head.headers.get("location")).toBe("/offer2/fr");

    await admin.goto(`${server.url}/admin/experiments/${key}`);
    await admin.getByTestId("experiment-stop").click();
    await admin.waitForURL(/done=stopped/);
    expect(await admin.getByTestId("experiment-status").textContent()).toBe("Stopped");
    await admin.context().close();
    expect((await visit("/offer/fr")).status).toBe(200);
  });
});
