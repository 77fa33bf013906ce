import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dispatchDeadline } from "../../app/parcels/dispatch-promise";
import { seriousViolations } from "./support/axe";
import { addOperator, logIn } from "./support/back-office";
import { launchChromium, openHydrated } from "./support/chromium";
import { mailFiles, readable } from "./support/mail-files";
import { startServer, type RunningServer } from "./support/server";
import { createPostgresDatabase, databaseKinds } from "./support/postgres";

/**
 * The back office as the people who run the store use it, on the embedded database and (when
 * TEST_DATABASE_URL is set) on PostgreSQL: operators added on the command line, an order placed by
 * a buyer a minute ago found, refunded, fulfilled, a withdrawal handled, a customer's data exported
 * and erased, and the funnel report read.
 */

const ownerPassword = "owner password 1234";
const supportPassword = "support password 1234";
const buyer = { email: "lena.schmidt@example.com", givenName: "Lena", familyName: "Schmidt", addressLine1: "Gartenweg 7", postalCode: "80331", city: "München" };


describe.each(databaseKinds)("the back office on %s", (kind) => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: RunningServer;
  let browser: Browser;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let orderNumber = "";
  /** A moment just before the buyer paid, to know which dispatch cut-off the order was promised. */
  let orderPlacedFrom = 0;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-admin-"));
    database = kind === "postgres" ? await createPostgresDatabase("back_office") : undefined;
    env = { DATA_DIR: dataDir, ...(database ? { DATABASE_URL: database.url } : {}) };
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

  async function mailsTo(address: string): Promise<string[]> {
    return (await mailFiles(dataDir)).filter((text) => text.includes(`To: ${address}`));
  }

  /** The buyer's shipping e-mails, readable (quoted-printable undone). */
  async function shippingMails(): Promise<string[]> {
    return (await mailsTo(buyer.email)).map(readable).filter((mail) => mail.includes("Sendungsnummer: "));
  }

  it("adds operators on the command line, refusing a short password, and the server says how when there is none", { timeout: 120_000 }, async () => {
    server = await startServer(env);
    expect(server.output()).toContain("npm run admin -- add-user");
    if (kind === "pglite") await server.stop();
    const short = addOperator(env, "owner@example.com", "owner", "short");
    expect(short.status).toBe(1);
    expect(short.stderr).toContain("at least 12 characters");
    const owner = addOperator(env, "owner@example.com", "owner", ownerPassword);
    expect(owner.stdout + owner.stderr).toContain("Added owner@example.com (owner)");
    expect(addOperator(env, "support@example.com", "support", supportPassword).status).toBe(0);
    if (kind === "pglite") {
      server = await startServer(env);
      expect(server.output()).not.toContain("No back-office operator yet");
    }
  });

  /** A buyer's order of 3 boxes of Shape in Germany (89,70 €), paid by card, upsells declined; its number. */
  async function placeOrderAs(contact: Record<string, string>): Promise<string> {
    const page = await newPage();
    await openHydrated(page, `${server.url}/checkout/de?bundle=shape-3&src=v2`);
    for (const [field, value] of Object.entries(contact)) await page.locator(`[name="${field}"]`).fill(value);
    await page.locator('input[name="method"][value="card"]').check();
    await page.locator('[autocomplete="cc-number"]').fill("4242 4242 4242 4242");
    await page.locator('[autocomplete="cc-exp"]').fill("12/30");
    await page.locator('[autocomplete="cc-csc"]').fill("123");
    await page.getByTestId("place-order").click();
    await page.waitForURL(/\/upsell\/de/);
    await page.getByTestId("upsell-decline").click();
    await page.waitForURL(/\/upsellMind\/de/);
    await page.getByTestId("upsell-decline").click();
    await page.waitForURL(/\/thankyou\/de/);
    const number = (await page.getByTestId("order-number").textContent()) ?? "";
    await page.context().close();
    return number;
  }

  /** A withdrawal declared on the German page for an order, as its buyer declares it. */
  async function withdraw(number: string, name: string, email: string): Promise<void> {
    const buyerPage = await newPage();
    await openHydrated(buyerPage, `${server.url}/withdraw/de`);
    await buyerPage.locator('[name="name"]').fill(name);
    await buyerPage.locator('[name="orderNumber"]').fill(number);
    await buyerPage.locator('[name="email"]').fill(email);
    await buyerPage.locator('button[name="intent"][value="review"]').click();
    await buyerPage.getByTestId("withdraw-confirm").click();
    await buyerPage.getByTestId("withdraw-received").waitFor();
    await buyerPage.context().close();
  }

  it("lets a buyer's order placed a minute ago be found by e-mail, number and name", { timeout: 90_000 }, async () => {
    orderPlacedFrom = Date.now();
    orderNumber = await placeOrderAs(buyer);
    expect(orderNumber).toMatch(/^VN-/);

    const admin = await newPage();
    await logIn(admin, server.url, "owner@example.com", ownerPassword);
    await admin.waitForURL(`${server.url}/admin/orders`);
    for (const query of [buyer.email, orderNumber.toLowerCase(), "lena schm"]) {
      await admin.locator('input[name="q"]').fill(query);
      await admin.getByRole("button", { name: "Show" }).click();
      const rows = admin.getByTestId("admin-order-row");
      await expect.poll(() => rows.count(), { message: query }).toBe(1);
      expect(await rows.first().textContent()).toContain(orderNumber);
    }
    await admin.locator('select[name="status"]').selectOption("refunded");
    await admin.getByRole("button", { name: "Show" }).click();
    expect(await admin.getByTestId("admin-order-row").count()).toBe(0);
    expect(await seriousViolations(admin)).toEqual([]);
    await admin.context().close();
  });

  it("refuses wrong passwords, a session that is not there, forged cross-site posts and a support operator's refund", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", "not the password");
    expect(await page.getByRole("alert").textContent()).toContain("Wrong e-mail address or password");
    expect(await seriousViolations(page)).toEqual([]);

    const forgedSession = await fetch(`${server.url}/admin/orders`, { headers: { cookie: "vitanor_admin=forged" }, redirect: "manual" });
    expect(forgedSession.status).toBe(303);
    expect(forgedSession.headers.get("location")).toContain("/admin/login");

    await logIn(page, server.url, "support@example.com", supportPassword);
    await page.waitForURL(`${server.url}/admin/orders`);
    const cookie = (await page.context().cookies()).find((candidate) => candidate.name === "vitanor_admin");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/admin" });
    await page.goto(`${server.url}/admin/orders/${orderNumber}`);
    expect(await page.getByTestId("admin-refund").count()).toBe(0);

    const refundForm = { reason: "goodwill", requestKey: "8b7c2a7e-3f1d-4a55-9d0e-2f6a1b3c4d5e" };
    const bySupport = await page.request.post(`${server.url}/admin/orders/${orderNumber}/refund`, { form: refundForm, headers: { origin: server.url } });
    expect(bySupport.status()).toBe(403);
    expect(await bySupport.text()).toContain("Only an owner may refund");
    // Support reads reviews; only an owner publishes or rejects them.
    await page.goto(`${server.url}/admin/reviews`);
    expect(await page.getByRole("button", { name: "Publish" }).count()).toBe(0);
    const moderation = await page.request.post(`${server.url}/admin/reviews/0b9f2a52-7d1e-4c1a-9d55-3f1e2a6b7c8d`, { form: { decision: "publish", back: "pending" }, headers: { origin: server.url } });
    expect(moderation.status()).toBe(403);
    expect(await moderation.text()).toContain("Only an owner may publish or reject reviews");
    const crossSite = await page.request.post(`${server.url}/admin/orders/${orderNumber}/refund`, { form: refundForm, headers: { origin: "https://evil.example" } });
    expect(crossSite.status()).toBe(403);
    await page.goto(`${server.url}/admin/orders/${orderNumber}`);
    expect(await page.locator(".status").first().textContent()).toBe("paid");
    await page.context().close();
  });

  it("lists the order for the warehouse once its funnel ended, exports the CSV and marks it fulfilled with a tracking number, whose link the buyer gets by e-mail", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "support@example.com", supportPassword);
    await page.goto(`${server.url}/admin/fulfilment`);
    expect(await seriousViolations(page)).toEqual([]);
    // Paid a minute ago: due out at the German cut-off ahead (today's or the next shipping day's), so
    // not marked overdue, unless that cut-off fell in the minute the suite took since.
    const cutoffMayHavePassed = dispatchDeadline(new Date(orderPlacedFrom), "DE").getTime() <= Date.now();
    expect(await page.getByTestId("admin-overdue").count()).toBeLessThanOrEqual(cutoffMayHavePassed ? 1 : 0);
    const csvLink = page.getByTestId("admin-fulfilment-csv");
    const csv = await page.request.get(new URL((await csvLink.getAttribute("href")) ?? "", server.url).toString());
    expect(csv.headers()["content-type"]).toContain("text/csv");
    const text = await csv.text();
    const row = text.split("\r\n").find((line) => line.includes(orderNumber)) ?? "";
    expect(row).toContain("Lena Schmidt");
    expect(row).toContain("80331");
    expect(row).toContain("München");
    await page.goto(`${server.url}/admin/orders/${orderNumber}`);
    await page.locator('select[name="carrier"]').selectOption("dhl");
    await page.locator('input[name="trackingNumber"]').fill("0034 0434 1612 3456 7890");
    await page.getByTestId("admin-record-shipment").click();
    await page.waitForURL(/done=shipment_recorded/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await page.locator(".status").first().textContent()).toBe("fulfilled");
    expect(await page.locator("#timeline ~ table").textContent()).toContain("order fulfilled by support@example.com");
    const dhlLink = "https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=00340434161234567890";
    expect(await page.getByTestId("admin-shipment-link").getAttribute("href")).toBe(dhlLink);
    await expect.poll(async () => (await shippingMails()).length, { timeout: 20_000 }).toBe(1);
    const [mail = ""] = await shippingMails();
    expect(mail).toContain(`Subject: Ihre Vitanor-Bestellung ${orderNumber} ist unterwegs`);
    expect(mail).toContain("Sendungsnummer: 00340434161234567890");
    expect(mail).toContain(`Sendung bei DHL verfolgen: ${dhlLink}`);
    await page.context().close();
  });

  it("imports the warehouse's tracking CSV line by line: a second parcel e-mailed once, bad lines refused with their reason", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "support@example.com", supportPassword);
    const csv = ["Order number,Carrier,Tracking number", `${orderNumber},DPD,01234567890123`, "VN-2222-2222,DPD,01234567890123", `${orderNumber},Royal Mail,AB123456789GB`, `${orderNumber},UPS,1Z12`, ""].join("\r\n");
    const importFile = async () => {
      await page.goto(`${server.url}/admin/fulfilment`);
      await page.getByTestId("admin-tracking-csv").setInputFiles({ name: "tracking.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
      await page.getByRole("button", { name: "Import" }).click();
      await page.getByTestId("admin-imported-line").first().waitFor();
      return page.getByTestId("admin-imported-line").allTextContents();
    };
    expect(await importFile()).toEqual([
      `2${orderNumber}recorded; the buyer gets the tracking link`,
      "3—refused: there is no order with this number",
      `4${orderNumber}refused: Royal Mail does not deliver in the order's market, DE; carriers there: DHL, Deutsche Post, DPD, GLS, UPS`,
      `5${orderNumber}refused: UPS numbers look like this: a package's tracking number starts with 1Z followed by 16 letters and digits`,
    ]);
    expect(await seriousViolations(page)).toEqual([]);
    await expect.poll(async () => (await shippingMails()).length, { timeout: 20_000 }).toBe(2);
    const second = (await shippingMails()).find((mail) => mail.includes("ein weiteres Paket Ihrer Bestellung")) ?? "";
    expect(second).toContain("Sendung bei DPD verfolgen: https://tracking.dpd.de/status/en_US/parcel/01234567890123");

    expect((await importFile())[0]).toBe(`2${orderNumber}already recorded; nothing sent`);
    // The outbox worker sends every two seconds: a second e-mail would have been written by now.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(await shippingMails()).toHaveLength(2);
    await page.goto(`${server.url}/admin/orders/${orderNumber}`);
    expect(await page.getByTestId("admin-shipment-link").allTextContents()).toEqual(["00340434161234567890", "01234567890123"]);
    await page.context().close();
  });

  it("refunds a single line through the provider, with a refund e-mail to the buyer", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.goto(`${server.url}/admin/orders/${orderNumber}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('input[name="line"]').first().check();
    await page.locator('select[name="reason"]').selectOption("damaged");
    await page.getByTestId("admin-refund").click();
    // Nothing is sent before the operator has seen the amount and said yes to it.
    const confirmation = page.getByTestId("admin-refund-confirmation");
    expect(await confirmation.textContent()).toContain("Nothing has been refunded yet");
    expect(await page.getByTestId("admin-refund-confirm").textContent()).toBe("Refund €89.70");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("link", { name: "Cancel, refund nothing" }).click();
    expect(await page.locator(".status").first().textContent()).toBe("fulfilled");
    expect(await mailsTo(buyer.email).then((mails) => mails.filter((mail) => /Subject: .*(Erstattung|erstattet)/i.test(mail)).length)).toBe(0);
    await page.locator('input[name="line"]').first().check();
    await page.locator('select[name="reason"]').selectOption("damaged");
    await page.getByTestId("admin-refund").click();
    await page.getByTestId("admin-refund-confirm").click();
    await page.waitForURL(/done=refunded/);
    expect(await page.locator(".status").first().textContent()).toMatch(/refunded/);
    expect(await page.locator("#timeline ~ table").textContent()).toContain("refund by owner@example.com");
    await expect.poll(async () => (await mailsTo(buyer.email)).filter((mail) => /Subject: .*(Erstattung|erstattet)/i.test(mail)).length, { timeout: 20_000 }).toBe(1);
    // Nothing is left to refund: the form is gone, and a refund sent anyway is refused and changes nothing.
    expect(await page.getByTestId("admin-refund").count()).toBe(0);
    const again = await page.request.post(`${server.url}/admin/orders/${orderNumber}/refund`, {
      form: { reason: "goodwill", requestKey: "0f6f0c1e-58a4-4b8e-9a51-3c1d2e4f5a6b" },
      headers: { origin: server.url },
    });
    expect(again.status()).toBe(409);
    expect(await again.text()).toContain("Nothing is left to refund");
    await page.context().close();
  });

  it("shows a withdrawal in its queue, linked to its order, and moves it on", { timeout: 60_000 }, async () => {
    await withdraw(orderNumber, "Lena Schmidt", buyer.email);

    const page = await newPage();
    await logIn(page, server.url, "support@example.com", supportPassword);
    await page.goto(`${server.url}/admin/requests`);
    expect(await seriousViolations(page)).toEqual([]);
    const queue = page.getByTestId("admin-withdrawals");
    const row = queue.locator("tr", { hasText: orderNumber });
    expect(await row.locator("a").textContent()).toBe(orderNumber);
    expect(await row.textContent()).toContain("received");
    // No status is chosen for the operator, and "refunded" is not a word one can set.
    const status = row.locator('select[name="status"]');
    expect(await status.inputValue()).toBe("");
    expect(await status.locator("option").allTextContents()).toEqual(["Choose…", "closed (nothing to refund, or refunded elsewhere)"]);
    await status.selectOption("closed");
    await row.getByRole("button", { name: "Set" }).click();
    await page.waitForURL(/done=changed/);
    expect(await page.getByTestId("admin-withdrawals").locator("tr", { hasText: orderNumber }).textContent()).toContain("closed");
    await page.context().close();
  });

  it("refunds a withdrawal from its queue through the provider, with the amount confirmed first, and only then shows it refunded", { timeout: 120_000 }, async () => {
    const other = { ...buyer, email: "jonas.weber@example.com", givenName: "Jonas", familyName: "Weber" };
    const number = await placeOrderAs(other);
    await withdraw(number, "Jonas Weber", other.email);

    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.goto(`${server.url}/admin/requests`);
    const row = () => page.getByTestId("admin-withdrawals").locator("tr", { hasText: number });
    expect(await row().textContent()).toContain("Order withdrawn; refunded so far €0.00");
    // A status set by hand cannot say refunded.
    const refundAction = (await row().getByTestId("admin-withdrawal-refund").getAttribute("action")) ?? "";
    const forged = await page.request.post(`${server.url}${refundAction.replace(/\/refund$/, "")}`, {
      form: { status: "refunded" },
      headers: { origin: server.url },
    });
    expect(forged.status()).toBe(409);
    expect(await forged.text()).toContain("That status cannot follow the current one");

    const line = row().locator('input[name="line"]');
    expect(await line.count()).toBe(1);
    expect(await line.isChecked()).toBe(false);
    await row().getByRole("button", { name: "Refund ticked lines…" }).click();
    expect(await page.getByRole("alert").textContent()).toContain(`Tick the lines of ${number} that the withdrawal concerns. Nothing was refunded.`);
    await row().locator('input[name="line"]').check();
    await row().getByRole("button", { name: "Refund ticked lines…" }).click();
    expect(await page.getByTestId("admin-refund-confirm").textContent()).toBe("Refund €89.70");
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByTestId("admin-refund-confirm").click();
    await page.waitForURL(/done=refunded/);
    expect(await row().textContent()).toContain("refunded");
    expect(await row().textContent()).toContain("Order refunded; refunded so far €89.70");
    expect(await row().getByTestId("admin-withdrawal-refund").count()).toBe(0);
    await page.goto(`${server.url}/admin/orders/${number}`);
    expect(await page.locator(".status").first().textContent()).toBe("refunded");
    expect(await page.locator("main").textContent()).toContain("Refunded€89.70");
    await expect.poll(async () => (await mailsTo(other.email)).filter((mail) => /Subject: .*(Erstattung|erstattet)/i.test(mail)).length, { timeout: 20_000 }).toBe(1);
    await page.context().close();
  });

  it("exports a customer's data and lets only an owner erase it, keeping the amounts", { timeout: 60_000 }, async () => {
    const support = await newPage();
    await logIn(support, server.url, "support@example.com", supportPassword);
    await support.goto(`${server.url}/admin/privacy`);
    expect(await seriousViolations(support)).toEqual([]);
    const exported = await support.request.post(`${server.url}/admin/privacy/export`, { form: { email: buyer.email.toUpperCase() }, headers: { origin: server.url } });
    expect(exported.headers()["content-disposition"]).toContain("attachment");
    const data = (await exported.json()) as { orders: { number: string }[] };
    expect(data.orders.map((order) => order.number)).toEqual([orderNumber]);
    const bySupport = await support.request.post(`${server.url}/admin/privacy/erase`, { form: { email: buyer.email, confirmEmail: buyer.email, verified: "yes" }, headers: { origin: server.url } });
    expect(bySupport.status()).toBe(403);
    await support.context().close();

    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.goto(`${server.url}/admin/privacy`);
    const erase = page.locator('form[action="/admin/privacy/erase"]');
    await erase.locator('[name="email"]').fill("nobody@example.com");
    await erase.locator('[name="confirmEmail"]').fill("nobody@example.com");
    await erase.locator('[name="verified"]').check();
    await erase.getByRole("button", { name: "Erase" }).click();
    expect(await page.getByRole("alert").textContent()).toContain("Nothing is stored for this address");

    await page.goto(`${server.url}/admin/privacy`);
    await erase.locator('[name="email"]').fill(buyer.email);
    await erase.locator('[name="confirmEmail"]').fill(buyer.email);
    await erase.locator('[name="verified"]').check();
    await erase.getByRole("button", { name: "Erase" }).click();
    await page.waitForURL(/done=erased/);
    await page.goto(`${server.url}/admin/orders/${orderNumber}`);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain("Schmidt");
    expect(text).not.toContain(buyer.email);
    expect(text).toContain("Personal data erased");
    expect(text).toContain("89,70".replace(",", "."));
    await page.context().close();
  });

  it("reads the funnel report, keeps storefront pages free of back-office code, and logs out", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    const day = new Date().toISOString().slice(0, 10);
    await page.goto(`${server.url}/admin/report?from=${day}&to=${day}&test=1`);
    const report = page.getByTestId("funnel-report");
    expect(await report.textContent()).toMatch(/checkout/i);
    expect(await seriousViolations(page)).toEqual([]);
    const head = await fetch(`${server.url}/admin/report`, { redirect: "manual" });
    expect(head.status).toBe(303);

    const storefront = await (await fetch(`${server.url}/offer/de`)).text();
    expect(storefront).not.toMatch(/admin/i);
    const scripts = [...storefront.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1] ?? "");
    expect(scripts.length).toBeGreaterThan(0);
    for (const asset of scripts) expect(await (await fetch(`${server.url}${asset}`)).text(), asset).not.toMatch(/back office|admin\.css|\/admin\//i);

    await page.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(/\/admin\/login/);
    await page.goto(`${server.url}/admin/orders`);
    await page.waitForURL(/\/admin\/login/);
    await page.context().close();
  });
});
