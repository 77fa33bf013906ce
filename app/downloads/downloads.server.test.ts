import { randomUUID } from "node:crypto";
import { inflateSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Operator } from "../operators/audit.server";
import { eraseCustomerData } from "../admin/privacy.server";
import type { Database } from "../db/database.server";
import { downloadLinks, downloads } from "./schema";
import { outbox } from "../mail/schema";
import { payments } from "../orders/schema";
import { reviewInvitations } from "../reviews/schema";
import { closeDispute, openDispute } from "../orders/disputes.server";
import { refundOrder } from "../orders/refund-service.server";
import type { OrderLine } from "../orders/order-records.server";
import { TestGateway } from "../payments/test-gateway/test-gateway.server";
import { paidTestOrder, testOperator } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { sampleFiles, scratchFolder, zipOf } from "../test-support/digital-files";
import { addDigitalFile, currentFile, filesByProduct, productsWithoutFile } from "./digital-files.server";
import { burstLimit, handleDownload, parseRange, type DownloadContext } from "./download-handler.server";
import { downloadToken, issueDownloadLinks, linkIdOf, linksOfOrder, reissueDownloadLinks, type LinkLimits } from "./links.server";
import { filesystemStorage, type FileStorage } from "./storage.server";
import { composeMail } from "../emails/compose.server";
import { formatMessage, mailTextsFor } from "../mail/mail-texts.server";
import { localeCodes } from "../market/markets";
import { commerceTextsFor } from "../orders/commerce-texts.server";

const key = "a-test-signing-key-of-enough-length";
const limits: LinkLimits = { linkDays: 30, linkMaxDownloads: 3 };
const dayMs = 24 * 60 * 60 * 1000;
const maxBytes = 1024 * 1024;

describe("download tokens", () => {
  const id = randomUUID();
  const token = downloadToken(key, id);
  it.each<[string, string, string | null]>([
    ["its own token", token, id],
    ["a token with another signature", `${id}.${"A".repeat(43)}`, null],
    ["another link's id under this signature", `${randomUUID()}${token.slice(36)}`, null],
    ["a token cut short", token.slice(0, -1), null],
    ["a token signed with another key", downloadToken("another key", id), null],
    ["the id alone", id, null],
    ["nothing", "", null],
  ])("%s", (_case, candidate, expected) => {
    expect(linkIdOf(key, candidate)).toBe(expected);
  });
});

describe("range headers", () => {
  it.each<[string | null, number, ReturnType<typeof parseRange>]>([
    [null, 100, null],
    ["bytes=0-9", 100, { start: 0, end: 9 }],
    ["bytes=90-", 100, { start: 90, end: 99 }],
    ["bytes=90-500", 100, { start: 90, end: 99 }],
    ["bytes=-10", 100, { start: 90, end: 99 }],
    ["bytes=-500", 100, { start: 0, end: 99 }],
    ["bytes=100-", 100, "unsatisfiable"],
    ["bytes=200-300", 100, "unsatisfiable"],
    ["bytes=9-3", 100, "unsatisfiable"],
    ["bytes=-0", 100, "unsatisfiable"],
    ["bytes=0-1,5-6", 100, null],
    ["items=0-1", 100, null],
  ])("%s of %i bytes is %j", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe.each(databaseKinds)("digital delivery on %s", (kind) => {
  const database = useTestDatabase(kind);
  let db: Database;
  let operator: Operator;
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  let storage: FileStorage;
  let context: DownloadContext;
  beforeAll(async () => {
    db = database.db;
    operator = await testOperator(db, "owner");
    scratch = await scratchFolder();
    storage = filesystemStorage(`${scratch.dir}/files`);
    context = { db, files: storage, signingKey: key, reviewDelayDays: 7 };
  });
  afterAll(async () => {
    await scratch.cleanup();
  });

  async function upload(productId: string, bytes: Uint8Array, locale?: string) {
    const path = await scratch.write(`${randomUUID()}.upload`, bytes);
    return addDigitalFile(db, storage, { productId, locale: locale ?? null, path, uploadedBy: operator.email }, { maxBytes });
  }

  async function orderWithEbook(options: { email?: string; test?: boolean } = {}) {
    const paid = await paidTestOrder(db, { upsells: ["ebook-1", "mind-1"], contact: { email: options.email ?? `buyer-${randomUUID().slice(0, 8)}@example.com` }, test: options.test ?? false });
    const links = await issueDownloadLinks(db, paid.order, limits);
    const linkOf = (productId: string) => {
      const found = links.find(({ line }) => line.productId === productId);
      if (!found) throw new Error(`no link for ${productId}`);
      return found;
    };
    return { ...paid, links, linkOf };
  }

  const get = (token: string, headers: Record<string, string> = {}) => handleDownload(new Request(`http://store.test/download/${token}`, { headers }), token, context);
  const tokenOf = (entry: { link: { id: string } }) => downloadToken(key, entry.link.id);

  describe("files", () => {
    it("refuses what is not a whole deliverable file, and keeps the current version", async () => {
      const first = await upload("mind", await sampleFiles.zip());
      expect(first.kind).toBe("added");
      const refusals = [
        [await upload("mind", Buffer.from("<html>not audio</html>")), "unknown_type"],
        [await upload("mind", (await sampleFiles.zip()).subarray(0, 40)), "truncated"],
        [await upload("mind", Buffer.alloc(maxBytes + 1)), "too_large"],
        [await upload("mind", Buffer.alloc(0)), "empty"],
        [await upload("shape", await sampleFiles.pdf()), "unknown_product"],
        [await upload("mind", await sampleFiles.zip(), "xx_XX"), "unknown_locale"],
      ] as const;
      for (const [result, reason] of refusals) expect(result).toMatchObject({ kind: "refused", reason, message: expect.stringMatching(/\.$/) });
      expect((await currentFile(db, "mind", "de_DE"))?.id).toBe(first.kind === "added" ? first.file.id : -1);
    });

    it("makes each upload the current version, a locale's own file before the default", async () => {
      const v1 = await upload("ebook", await sampleFiles.pdf());
      const v2 = await upload("ebook", await sampleFiles.epub());
      const german = await upload("ebook", await sampleFiles.pdf(), "de-de");
      expect([v1, v2, german].map((result) => (result.kind === "added" ? `${result.file.locale}:${result.file.version}:${result.file.contentType}` : result.kind))).toEqual([
        ":1:application/pdf",
        ":2:application/epub+zip",
        "de_DE:1:application/pdf",
      ]);
      expect((await currentFile(db, "ebook", "fr_FR"))?.contentType).toBe("application/epub+zip");
      expect((await currentFile(db, "ebook", "de_DE"))?.locale).toBe("de_DE");
      const listed = (await filesByProduct(db)).find((product) => product.productId === "ebook");
      expect(listed?.files.map((file) => `${file.locale}:${file.version}:${file.current}`)).toEqual([":2:true", ":1:false", "de_DE:1:true"]);
      expect(await productsWithoutFile(db)).toEqual([]);
    });
  });

  describe("links", () => {
    it("streams the stored file byte for byte with its type and name, and counts each download", async () => {
      const { linkOf } = await orderWithEbook();
      const stored = await currentFile(db, "ebook", "de_DE");
      const response = await get(tokenOf(linkOf("ebook")));
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/pdf");
      expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="vitanor-everyday-recipes-ebook-de-de\.pdf"/);
      expect(response.headers.get("Accept-Ranges")).toBe("bytes");
      const body = Buffer.from(await response.arrayBuffer());
      expect(body.length).toBe(stored?.bytes);
      expect(body.subarray(0, 5).toString()).toBe("%PDF-");
      const [link] = await db.select().from(downloadLinks).where(eq(downloadLinks.id, linkOf("ebook").link.id));
      expect(link?.downloadCount).toBe(1);
      await expect.poll(async () => (await db.select().from(downloads).where(eq(downloads.linkId, linkOf("ebook").link.id)))[0]?.bytes).toBe(body.length);
    });

    it("answers a range with 206, counts it when it continues no download cut off, and a range outside the file with 416", async () => {
      const { linkOf } = await orderWithEbook();
      const token = tokenOf(linkOf("mind"));
      const whole = Buffer.from(await (await get(token)).arrayBuffer());
      const part = await get(token, { Range: "bytes=10-19" });
      expect(part.status).toBe(206);
      expect(part.headers.get("Content-Range")).toBe(`bytes 10-19/${whole.length}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(whole.subarray(10, 20));
      const outside = await get(token, { Range: `bytes=${whole.length}-` });
      expect(outside.status).toBe(416);
      expect(outside.headers.get("Content-Range")).toBe(`bytes */${whole.length}`);
      const [link] = await db.select().from(downloadLinks).where(eq(downloadLinks.id, linkOf("mind").link.id));
      expect(link?.downloadCount).toBe(2);
    });

    it("is used up after its downloads, and says so in the buyer's language", async () => {
      const { linkOf, order } = await orderWithEbook();
      const token = tokenOf(linkOf("ebook"));
      for (let i = 0; i < limits.linkMaxDownloads; i++) expect((await get(token)).status).toBe(200);
      const refused = await get(token);
      expect(refused.status).toBe(410);
      const page = await refused.text();
      expect(page).toContain('data-reason="used_up"');
      expect(page).toContain("Dieser Download-Link ist aufgebraucht");
      expect(page).toContain(order.number);
      expect(page).not.toContain("%PDF");
    });

    it("expires after its days", async () => {
      const { linkOf } = await orderWithEbook();
      await db.update(downloadLinks).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(downloadLinks.id, linkOf("ebook").link.id));
      const refused = await get(tokenOf(linkOf("ebook")));
      expect(refused.status).toBe(410);
      expect(await refused.text()).toContain('data-reason="expired"');
    });

    it("refuses an altered link with a page in the browser's language, before any lookup", async () => {
      const { linkOf } = await orderWithEbook();
      const token = tokenOf(linkOf("ebook"));
      const altered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
      const refused = await get(altered, { "Accept-Language": "fr-CH,fr;q=0.9" });
      expect(refused.status).toBe(404);
      const page = await refused.text();
      expect(page).toContain('data-reason="altered"');
      expect(page).toContain('lang="fr-CH"');
    });

    it("is revoked when its line is refunded, while the order's other link works on", async () => {
      const { linkOf, order } = await orderWithEbook();
      const gateway = new TestGateway(db);
      const refund = await refundOrder(db, new Map([["test", gateway]]), { orderId: order.id, scope: { kind: "lines", lineIds: [linkOf("ebook").line.id] }, reason: "not wanted", requestKey: randomUUID() });
      expect(refund.kind).not.toBe("refused");
      const refused = await get(tokenOf(linkOf("ebook")));
      expect(refused.status).toBe(410);
      expect(await refused.text()).toContain('data-reason="revoked"');
      expect((await get(tokenOf(linkOf("mind")))).status).toBe(200);
      expect((await linksOfOrder(db, order.id)).map((entry) => `${entry.line.productId}:${entry.state}`)).toEqual(["ebook:revoked", "mind:ok"]);
    });

    it("refuses while the order's payment is disputed, and for good once the dispute is lost", async () => {
      const { linkOf, order } = await orderWithEbook();
      const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id));
      if (!payment) throw new Error("no payment");
      const disputeRef = `dp_${randomUUID()}`;
      await openDispute(db, payment.id, disputeRef);
      const whileOpen = await get(tokenOf(linkOf("ebook")));
      expect(whileOpen.status).toBe(410);
      expect(await whileOpen.text()).toContain('data-reason="revoked"');
      await closeDispute(db, payment.id, disputeRef, "lost");
      expect((await get(tokenOf(linkOf("ebook")))).status).toBe(410);
      expect((await linksOfOrder(db, order.id)).map((entry) => entry.state)).toEqual(["revoked", "revoked"]);
      expect(await reissueDownloadLinks(db, operator, order.id, randomUUID(), limits)).toEqual({ kind: "refused", reason: "no_digital_line" });
    });

    it("works again once a dispute is won", async () => {
      const { linkOf, order } = await orderWithEbook();
      const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id));
      if (!payment) throw new Error("no payment");
      const disputeRef = `dp_${randomUUID()}`;
      await openDispute(db, payment.id, disputeRef);
      await closeDispute(db, payment.id, disputeRef, "won");
      expect((await linksOfOrder(db, order.id)).map((entry) => entry.state)).toEqual(["ok", "ok"]);
      expect((await get(tokenOf(linkOf("ebook")))).status).not.toBe(410);
    });

    it("is revoked when the buyer's data is erased", async () => {
      const email = `erase-${randomUUID().slice(0, 8)}@example.com`;
      const { linkOf } = await orderWithEbook({ email });
      expect((await eraseCustomerData(db, operator, email)).kind).toBe("erased");
      const refused = await get(tokenOf(linkOf("mind")));
      expect(refused.status).toBe(410);
      expect(await refused.text()).toContain('data-reason="revoked"');
    });

    it("limits a burst of requests for one link", async () => {
      const { linkOf } = await orderWithEbook();
      const token = tokenOf(linkOf("mind"));
      const statuses: number[] = [];
      for (let i = 0; i <= burstLimit.requests; i++) statuses.push((await get(token, { Range: "bytes=100000-" })).status);
      expect(statuses.slice(0, -1).every((status) => status === 416)).toBe(true);
      const limited = await get(token);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    });

    it("sends the links again with fresh limits, once per form", async () => {
      const { linkOf, order } = await orderWithEbook();
      const token = tokenOf(linkOf("ebook"));
      for (let i = 0; i < limits.linkMaxDownloads; i++) await get(token);
      expect((await get(token)).status).toBe(410);
      const requestId = randomUUID();
      const fresh = { linkDays: 10, linkMaxDownloads: 5 };
      expect(await reissueDownloadLinks(db, operator, order.id, requestId, fresh)).toEqual({ kind: "sent", links: 2 });
      expect(await reissueDownloadLinks(db, operator, order.id, requestId, fresh)).toEqual({ kind: "already_sent" });
      const [link] = await db.select().from(downloadLinks).where(eq(downloadLinks.id, linkOf("ebook").link.id));
      expect(link).toMatchObject({ downloadCount: 0, maxDownloads: 5 });
      expect(link?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 9 * dayMs);
      expect((await get(token)).status).toBe(200);
      const mails = await db.select().from(outbox).where(and(eq(outbox.orderId, order.id), eq(outbox.kind, "download-links")));
      expect(mails).toHaveLength(1);
    });
  });

  describe("review invitations of digital items", () => {
    it("waits for the first download, then invites after the delay, once per line", async () => {
      const { order, linkOf } = await orderWithEbook();
      const invitations = () => db.select().from(reviewInvitations).where(eq(reviewInvitations.orderId, order.id));
      expect((await invitations()).filter((row) => row.productId !== "shape")).toEqual([]);
      const before = Date.now();
      await get(tokenOf(linkOf("ebook")));
      await get(tokenOf(linkOf("ebook")));
      const invited = (await invitations()).filter((row) => row.productId !== "shape");
      expect(invited.map((row) => row.productId)).toEqual(["ebook"]);
      const [mail] = await db.select().from(outbox).where(and(eq(outbox.orderId, order.id), eq(outbox.kind, "review-invitation")));
      expect(mail?.sendAfter.getTime()).toBeGreaterThanOrEqual(before + 7 * dayMs - 1000);
    });
  });

  it("keeps the order line of every recorded download", async () => {
    const { linkOf } = await orderWithEbook();
    await get(tokenOf(linkOf("ebook")));
    const [recorded] = await db.select().from(downloads).where(eq(downloads.linkId, linkOf("ebook").link.id));
    expect(recorded).toMatchObject({ orderLineId: (linkOf("ebook").line as OrderLine).id, counted: true });
  });
});

describe.each(databaseKinds)("attacks on the download limit on %s", (kind) => {
  const database = useTestDatabase(kind);
  let db: Database;
  let operator: Operator;
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  let storage: FileStorage;
  let context: DownloadContext;
  /** Larger than one piece the storage reads, so that a download can be cut off halfway. */
  const audio = zipOf([{ name: "session-01.mp3", data: Buffer.alloc(600_000, 3) }]);
  beforeAll(async () => {
    db = database.db;
    operator = await testOperator(db, "owner");
    scratch = await scratchFolder();
    storage = filesystemStorage(`${scratch.dir}/files`);
    context = { db, files: storage, signingKey: key, reviewDelayDays: 7 };
    for (const [productId, bytes] of [["mind", audio], ["ebook", await sampleFiles.pdf()]] as const) {
      const path = await scratch.write(`${randomUUID()}.upload`, bytes);
      const added = await addDigitalFile(db, storage, { productId, locale: null, path, uploadedBy: operator.email }, { maxBytes });
      if (added.kind !== "added") throw new Error(`${productId} was not stored`);
    }
  });
  afterAll(async () => {
    await scratch.cleanup();
  });

  async function audioLink(test = false) {
    const paid = await paidTestOrder(db, { upsells: ["mind-1"], test });
    const [entry] = await issueDownloadLinks(db, paid.order, limits);
    if (!entry) throw new Error("no link");
    const token = downloadToken(key, entry.link.id);
    const get = (headers: Record<string, string> = {}) => handleDownload(new Request(`http://store.test/download/${token}`, { headers }), token, context);
    const count = async () => (await db.select().from(downloadLinks).where(eq(downloadLinks.id, entry.link.id)))[0]?.downloadCount;
    const recorded = () => db.select().from(downloads).where(eq(downloads.linkId, entry.link.id));
    return { ...paid, entry, get, count, recorded };
  }

  /** A download the buyer stops after its first piece; resolves with the bytes recorded as sent. */
  async function cutOff(link: Awaited<ReturnType<typeof audioLink>>, headers: Record<string, string> = {}): Promise<number> {
    const response = await link.get(headers);
    expect(response.status).toBe(headers.Range ? 206 : 200);
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    await reader.read();
    await reader.cancel();
    let sent = 0;
    await expect.poll(async () => (sent = (await link.recorded()).at(-1)?.bytes ?? 0)).toBeGreaterThan(0);
    return sent;
  }

  it("refuses a range that starts after the first byte once the downloads are used up, however often it is asked", async () => {
    const link = await audioLink();
    // Compared with equals(): a deep equality over 600,000 elements takes seconds each.
    for (let i = 0; i < limits.linkMaxDownloads; i++) expect(Buffer.from(await (await link.get()).arrayBuffer()).equals(audio)).toBe(true);
    for (const range of ["bytes=1-", "bytes=1-", "bytes=300000-"]) {
      const refused = await link.get({ Range: range });
      expect(refused.status).toBe(410);
      expect(await refused.text()).toContain('data-reason="used_up"');
    }
    expect(await link.count()).toBe(limits.linkMaxDownloads);
  });

  it("counts a range that continues no download cut off", async () => {
    const link = await audioLink();
    const part = await link.get({ Range: "bytes=1-" });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(audio.subarray(1))).toBe(true);
    expect(await link.count()).toBe(1);
    // A whole download is nothing to resume either.
    const again = await link.get({ Range: "bytes=1-" });
    await again.arrayBuffer();
    expect(await link.count()).toBe(2);
  });

  it("resumes a download cut off from at most where it ended, once, without counting", async () => {
    const link = await audioLink();
    const sent = await cutOff(link);
    expect(sent).toBeLessThan(audio.length);
    expect(await link.count()).toBe(1);
    // Beyond where the cut-off download ended: no continuation, a download of its own.
    const beyond = await link.get({ Range: `bytes=${sent + 1}-` });
    await beyond.arrayBuffer();
    expect(await link.count()).toBe(2);
    const second = await cutOff(link);
    const resumed = await link.get({ Range: `bytes=${second}-` });
    expect(resumed.status).toBe(206);
    expect(Buffer.from(await resumed.arrayBuffer()).equals(audio.subarray(second))).toBe(true);
    expect(await link.count()).toBe(3);
    expect((await link.recorded()).filter((row) => !row.counted)).toHaveLength(1);
  });

  it("resumes a cut-off download only once: the same range again is a download of its own, refused when none is left", async () => {
    const link = await audioLink();
    await link.get().then((response) => response.arrayBuffer());
    await link.get().then((response) => response.arrayBuffer());
    const sent = await cutOff(link);
    expect(await link.count()).toBe(limits.linkMaxDownloads);
    const resumed = await link.get({ Range: `bytes=${sent}-` });
    expect(resumed.status).toBe(206);
    await resumed.arrayBuffer();
    const replayed = await link.get({ Range: `bytes=${sent}-` });
    expect(replayed.status).toBe(410);
    expect(await link.count()).toBe(limits.linkMaxDownloads);
  });

  it("answers a missing file with the unavailable page and counts nothing", async () => {
    const link = await audioLink();
    const stored = await currentFile(db, "mind", "de_DE");
    if (!stored) throw new Error("no file");
    const kept = await scratch.write("kept", Buffer.from(await (await storage.read(stored.storageKey, { start: 0, end: stored.bytes - 1 })).toArray().then((pieces) => Buffer.concat(pieces as Buffer[]))));
    await storage.remove(stored.storageKey);
    try {
      const refused = await link.get();
      expect(refused.status).toBe(503);
      expect(await refused.text()).toContain('data-reason="unavailable"');
      expect(await link.count()).toBe(0);
      expect(await link.recorded()).toEqual([]);
    } finally {
      await storage.put(stored.storageKey, kept, stored.contentType);
    }
    expect((await link.get()).status).toBe(200);
  });

  it("gives a test order the test delivery naming the stored file, never the stored bytes", async () => {
    const link = await audioLink(true);
    const stored = await currentFile(db, "mind", "de_DE");
    const response = await link.get();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.includes(audio.subarray(0, 64))).toBe(false);
    const texts = pdfTexts(pdf);
    expect(texts).toContain("Test delivery");
    expect(texts.join("\n")).toContain(stored?.fileName ?? "?");
    expect(texts.join("\n")).toContain(`${stored?.bytes ?? "?"} bytes`);
    // A range of a test order is of the test delivery too.
    const part = await link.get({ Range: "bytes=0-4" });
    expect(Buffer.from(await part.arrayBuffer()).toString()).toBe("%PDF-");
  });
});

/** The texts a PDF of ours shows: pdf-lib deflates each page's content and writes each line as a hex string. */
function pdfTexts(pdf: Buffer): string[] {
  const raw = pdf.toString("latin1");
  const contents = [...raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)].map((match) => {
    const bytes = Buffer.from(match[1] ?? "", "latin1");
    try {
      return inflateSync(bytes).toString("latin1");
    } catch {
      return bytes.toString("latin1");
    }
  });
  return contents.flatMap((content) => [...content.matchAll(/<([0-9A-Fa-f]+)> Tj/g)].map((match) => Buffer.from(match[1] ?? "", "hex").toString("latin1")));
}

describe.each(databaseKinds)("delivery without an uploaded file on %s", (kind) => {
  const database = useTestDatabase(kind);
  let scratch: Awaited<ReturnType<typeof scratchFolder>>;
  beforeAll(async () => {
    scratch = await scratchFolder();
  });
  afterAll(async () => {
    await scratch.cleanup();
  });

  it("gives a test order a one-page PDF saying it is a test delivery of that product for that order, and a real order a page saying it is not available", async () => {
    const db = database.db;
    const context: DownloadContext = { db, files: filesystemStorage(`${scratch.dir}/files`), signingKey: key, reviewDelayDays: 7 };
    expect((await productsWithoutFile(db)).map((product) => product.id).sort()).toEqual(["ebook", "mind"]);
    const test = await paidTestOrder(db, { upsells: ["mind-1"], test: true });
    const real = await paidTestOrder(db, { upsells: ["mind-1"], test: false });
    const [testLink] = await issueDownloadLinks(db, test.order, limits);
    const [realLink] = await issueDownloadLinks(db, real.order, limits);
    if (!testLink || !realLink) throw new Error("no links");
    const testToken = downloadToken(key, testLink.link.id);
    const response = await handleDownload(new Request(`http://store.test/download/${testToken}`), testToken, context);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.toString("latin1").match(/\/Type \/Page\b/g)).toHaveLength(1);
    const texts = pdfTexts(pdf);
    expect(texts).toContain("Test delivery");
    expect(texts).toContain(`Order: ${test.order.number}`);
    expect(texts).toContain(`Product: ${testLink.line.productName}`);
    const realToken = downloadToken(key, realLink.link.id);
    const refused = await handleDownload(new Request(`http://store.test/download/${realToken}`), realToken, context);
    expect(refused.status).toBe(503);
    expect(await refused.text()).toContain('data-reason="unavailable"');
  });
});

describe("the confirmation e-mail of an order with digital items", () => {
  const database = useTestDatabase("pglite");

  it("carries one download link per digital item, with when and how often the links work", async () => {
    const db = database.db;
    const { order } = await paidTestOrder(db, { upsells: ["ebook-1", "mind-1"] });
    const [row] = await db.select().from(outbox).where(and(eq(outbox.orderId, order.id), eq(outbox.kind, "order-confirmation")));
    if (!row) throw new Error("no confirmation queued");
    const mail = await composeMail(row, { db, from: "Store <shop@example.com>", publicUrl: "https://shop.example", signingKey: key, downloads: limits });
    const links = [...(mail?.text ?? "").matchAll(/https:\/\/shop\.example\/download\/([^\s]+)/g)].map((match) => match[1] ?? "");
    expect(links).toHaveLength(2);
    for (const token of links) expect(linkIdOf(key, token)).not.toBeNull();
    expect(mail?.text).toContain("IHRE DOWNLOADS");
    expect(mail?.text).toContain("Digitaler Artikel (Download-Link)");
    expect(mail?.text).toMatch(/Jeder Link funktioniert bis .* und für 3 Downloads\./);
  });
});

describe("download texts", () => {
  it.each(localeCodes.map((locale) => [locale]))("%s: every message formats", (locale) => {
    const mail = mailTextsFor(locale);
    const order = commerceTextsFor(locale).order;
    const values = { date: "1 January 2027", downloads: 10, product: "Product", email: "service@example.com", number: "VN-TEST-0001" };
    const messages = [mail.orderConfirmation.downloadNote, mail.orderConfirmation.downloadLink, ...Object.values(mail.downloadLinks), ...Object.values(mail.downloadPage), order.downloadNote, order.downloadLink];
    for (const message of messages) expect(formatMessage(message, "en-GB", values)).not.toMatch(/[{}]/);
  });
});
