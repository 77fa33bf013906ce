import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalS3, type LocalS3 } from "../../app/test-support/s3";
import { addOperator, logIn } from "./support/back-office";
import { launchChromium, openHydrated } from "./support/chromium";
import { addFile, downloadPathsIn, randomPdf } from "./support/digital-files";
import { mailFiles, readable } from "./support/mail-files";
import { rawRequest } from "./support/raw-http";
import { startServer, type RunningServer } from "./support/server";

/**
 * Digital delivery as a buyer and an operator meet it (docs/decisions/0027-digital-delivery.md): the
 * operator stores the ebook on the command line, the buyer takes it on the upsell page with the test
 * card and downloads the test delivery from the thank-you page and from the confirmation e-mail,
 * never the stored file, which the operator reads in the back office; a refunded line's link is
 * refused with a page in the buyer's language; the audio programme, which has no file, arrives as
 * the test-mode PDF.
 * Once with the files on the filesystem and once in an S3 bucket (s3rver).
 */

const ownerPassword = "owner password 1234";
const buyer = { email: "claire.martin@example.com", givenName: "Claire", familyName: "Martin", addressLine1: "8 rue des Lilas", postalCode: "69003", city: "Lyon" };

describe.each(["filesystem", "s3"] as const)("digital delivery with files on %s", (storage) => {
  let dataDir: string;
  let env: Record<string, string>;
  let server: RunningServer;
  let browser: Browser;
  let s3: LocalS3 | undefined;
  let ebook: Buffer;
  let orderNumber = "";

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-downloads-"));
    s3 = storage === "s3" ? await startLocalS3() : undefined;
    env = { DATA_DIR: dataDir, ...(s3 ? { S3_URL: s3.url } : {}) };
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await s3?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, acceptDownloads: true });
    return context.newPage();
  }

  async function confirmation(): Promise<string> {
    let found = "";
    await expect
      .poll(
        async () => {
          // The kind is read from the raw message: undoing quoted-printable may join header lines.
          const raw = (await mailFiles(dataDir)).find((mail) => /^Message-ID: <order-confirmation\./im.test(mail));
          found = raw ? readable(raw) : "";
          return found !== "";
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    return found;
  }

  it("stores the ebook on the command line, refusing a file that is not one, and the server starts with it", { timeout: 300_000 }, async () => {
    ebook = randomPdf(300_000);
    const good = join(dataDir, "recipes.pdf");
    await writeFile(good, ebook);
    const fake = join(dataDir, "recipes-fake.pdf");
    await writeFile(fake, "<!DOCTYPE html><p>not a book</p>");
    const cut = join(dataDir, "recipes-cut.pdf");
    await writeFile(cut, ebook.subarray(0, 1000));

    const refused = await addFile(env, "ebook", fake);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("not a PDF, EPUB, MP3, M4A or ZIP file");
    expect((await addFile(env, "ebook", cut)).stderr).toContain("cut off");
    expect((await addFile(env, "shape", good)).stderr).toContain("no digital product 'shape'");
    const stored = await addFile(env, "ebook", good);
    expect(stored.status).toBe(0);
    expect(stored.stdout).toMatch(/Stored application\/pdf \(300\d+ bytes\) as version 1 of ebook/);
    expect(addOperator(env, "owner@example.com", "owner", ownerPassword).status).toBe(0);
    server = await startServer(env);
    expect(server.output()).toContain(storage === "s3" ? "digital files: bucket store-files" : "digital files: files in");
  });

  it("sells the ebook from the offer and delivers a test order the test delivery from the thank-you page and the e-mail, never the stored file", { timeout: 120_000 }, async () => {
    const page = await newPage();
    await openHydrated(page, `${server.url}/offer/fr?src=v2`);
    await page.getByTestId("product-card").nth(1).getByRole("link").click();
    await page.waitForURL(/\/checkout\/fr/);
    await page.waitForSelector("html[data-hydrated]");
    for (const [field, value] of Object.entries(buyer)) await page.locator(`[name="${field}"]`).fill(value);
    await page.locator('input[name="method"][value="card"]').check();
    await page.locator('[autocomplete="cc-number"]').fill("4242 4242 4242 4242");
    await page.locator('[autocomplete="cc-exp"]').fill("12/30");
    await page.locator('[autocomplete="cc-csc"]').fill("123");
    await page.getByTestId("place-order").click();
    await page.waitForURL(/\/upsell\/fr/);
    await page.waitForSelector("html[data-hydrated]");
    await page.getByTestId("digital-consent").check();
    await page.getByTestId("upsell-accept").click();
    await page.waitForURL(/\/upsellMind\/fr/);
    await page.waitForSelector("html[data-hydrated]");
    await page.getByTestId("digital-consent").check();
    await page.getByTestId("upsell-accept").click();
    await page.waitForURL(/\/thankyou\/fr/);
    orderNumber = (await page.getByTestId("order-number").textContent()) ?? "";
    const links = page.getByTestId("download-link");
    await expect.poll(() => links.count()).toBe(2);
    const hrefs = await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""));
    for (const href of hrefs) expect(href).toMatch(/^\/download\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/);
    expect(await page.locator("#downloads-title").textContent()).toBe("Vos téléchargements");

    // The order was paid with the test card: the browser saves the test delivery, which names the
    // stored ebook without giving its bytes.
    const [download] = await Promise.all([page.waitForEvent("download"), links.first().click()]);
    expect(download.suggestedFilename()).toBe("test-delivery-ebook.pdf");
    const saved = await readFile(await download.path());
    expect(saved.subarray(0, 5).toString()).toBe("%PDF-");
    expect(saved.equals(ebook)).toBe(false);
    expect(saved.includes(ebook.subarray(1000, 1100))).toBe(false);

    const mail = await confirmation();
    expect(mail).toContain("Article numérique (lien de téléchargement)");
    const mailPaths = downloadPathsIn(mail);
    expect(mailPaths.sort()).toEqual([...hrefs].sort());
    const fromMail = await fetch(`${server.url}${mailPaths.find((path) => path === hrefs[0])}`);
    expect(fromMail.status).toBe(200);
    expect(fromMail.headers.get("content-type")).toBe("application/pdf");
    expect(fromMail.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(Buffer.from(await fromMail.arrayBuffer()).equals(saved)).toBe(true);

    // A range of it, and one outside it.
    const part = await fetch(`${server.url}${hrefs[0]}`, { headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(saved.subarray(100, 200))).toBe(true);
    const outside = await fetch(`${server.url}${hrefs[0]}`, { headers: { Range: `bytes=${saved.length}-` } });
    expect(outside.status).toBe(416);
    await page.context().close();
  });

  it("delivers the audio programme, which has no file, as a test-mode PDF for this order", { timeout: 60_000 }, async () => {
    const mail = await confirmation();
    const paths = downloadPathsIn(mail);
    const responses = await Promise.all(paths.map((path) => fetch(`${server.url}${path}`)));
    const testPdf = responses.find((response) => response.headers.get("content-disposition")?.includes("test-delivery-mind.pdf"));
    expect(testPdf?.status).toBe(200);
    expect(testPdf?.headers.get("content-type")).toBe("application/pdf");
    const body = Buffer.from((await testPdf?.arrayBuffer()) ?? new ArrayBuffer(0));
    expect(body.subarray(0, 5).toString()).toBe("%PDF-");
    expect(body.equals(ebook)).toBe(false);
  });

  it("lists the file with its downloads in the back office, gives the operator its bytes, and sends the links again", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.waitForURL(`${server.url}/admin/orders`);
    await page.goto(`${server.url}/admin/files`);
    const ebookFiles = page.locator('[data-testid="admin-product-files"][data-product="ebook"] [data-testid="admin-file"]');
    expect(await ebookFiles.count()).toBe(1);
    expect(await ebookFiles.first().textContent()).toMatch(/default.*1.*application\/pdf.*current/);
    // The operator reads the real file here, byte for byte the one stored.
    const [download] = await Promise.all([page.waitForEvent("download"), ebookFiles.first().getByTestId("admin-file-read").click()]);
    expect(download.suggestedFilename()).toBe("vitanor-everyday-recipes-ebook.pdf");
    expect((await readFile(await download.path())).equals(ebook)).toBe(true);
    await page.goto(`${server.url}/admin/orders/${orderNumber}`);
    expect(await page.getByTestId("admin-download-link").count()).toBe(2);
    await page.getByTestId("admin-resend-downloads").click();
    await page.waitForURL(/done=downloads_sent/);
    await expect
      .poll(async () => (await mailFiles(dataDir)).filter((raw) => /^Message-ID: <download-links\./im.test(raw) && readable(raw).includes(orderNumber)).length, { timeout: 20_000 })
      .toBe(1);
    await page.context().close();
  });

  it("refuses a refunded line's link with a page in the buyer's language, never the file", { timeout: 60_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.waitForURL(`${server.url}/admin/orders`);
    await page.goto(`${server.url}/admin/orders/${orderNumber}`);
    await page.getByRole("checkbox", { name: /Refund .*Everyday Recipes/i }).check();
    await page.locator('select[name="reason"]').selectOption("goodwill");
    await page.getByTestId("admin-refund").click();
    await page.getByTestId("admin-refund-confirm").click();
    await page.waitForURL(/done=refunded/);
    const paths = downloadPathsIn(await confirmation());
    const responses = await Promise.all(paths.map(async (path) => ({ path, response: await fetch(`${server.url}${path}`) })));
    const refused = responses.filter(({ response }) => response.status === 410);
    expect(refused).toHaveLength(1);
    const [{ response } = { response: new Response() }] = refused;
    const text = await response.text();
    expect(text).toContain("Ce lien de téléchargement n’est plus valable");
    expect(text).toContain(orderNumber);
    expect(text).not.toContain("%PDF");
    await page.context().close();
    // An altered link says so.
    const [first = ""] = paths;
    const altered = await fetch(`${server.url}${first.slice(0, -3)}abc`, { headers: { "Accept-Language": "fr-FR" } });
    expect(altered.status).toBe(404);
    expect(await altered.text()).toContain("incomplet ou a été modifié");
  });
  it("takes a file uploaded in the back office as it streams in, and refuses an upload without a session before reading it", { timeout: 120_000 }, async () => {
    const page = await newPage();
    await logIn(page, server.url, "owner@example.com", ownerPassword);
    await page.waitForURL(`${server.url}/admin/orders`);
    await page.goto(`${server.url}/admin/files`);
    const book = randomPdf(2_500_000);
    const path = join(dataDir, "recipes-2.pdf");
    await writeFile(path, book);
    const form = page.locator('[data-testid="admin-product-files"][data-product="ebook"] form');
    await form.getByTestId("admin-file-input").setInputFiles(path);
    await form.getByTestId("admin-file-upload").click();
    await page.waitForURL(/done=uploaded/);
    const ebookFiles = page.locator('[data-testid="admin-product-files"][data-product="ebook"] [data-testid="admin-file"]');
    expect(await ebookFiles.first().textContent()).toMatch(/default.*2.*application\/pdf.*current/);
    const [download] = await Promise.all([page.waitForEvent("download"), ebookFiles.first().getByTestId("admin-file-read").click()]);
    expect((await readFile(await download.path())).equals(book)).toBe(true);
    await page.context().close();

    // Without a session: refused before the body, whose announced 100 MB are never read.
    const refused = await rawRequest(server.url, [
      `POST /admin/files HTTP/1.1\r\nHost: ${new URL(server.url).host}\r\nOrigin: ${server.url}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n`,
      Buffer.alloc(64 * 1024, 0x41),
    ]);
    expect(refused.status).toBe(401);
    expect(refused.text.toLowerCase()).toContain("\r\nconnection: close\r\n");
    // The connection closed after the answer, not after a timeout of the test.
    expect(refused.closedAfterMs).not.toBeNull();
  });
});
