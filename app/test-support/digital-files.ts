import { crc32 } from "node:zlib";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Database } from "../db/database.server";
import { issueDownloadLinks, startDownload } from "../downloads/links.server";
import type { ByteSource } from "../downloads/file-types";
import { testDeliveryPdf } from "../downloads/test-delivery.server";
import type { Order } from "../orders/order-records.server";

/** Bytes in memory, judged as a stored file is. */
export function bufferSource(bytes: Uint8Array): ByteSource {
  return { size: bytes.length, read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)) };
}

/** Small files of each deliverable type, made here so that the tests need no binary fixtures. */

/** A ZIP of stored (uncompressed) entries, with its central directory and end record. */
export function zipOf(entries: readonly { name: string; data: Uint8Array }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(10, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(10, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(entry.data));
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function box(type: string, body: Uint8Array): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, body]);
}

export const sampleFiles = {
  pdf: async () => Buffer.from(await testDeliveryPdf({ productName: "Sample", orderNumber: "VN-TEST-0001", createdAt: new Date("2026-11-01T00:00:00Z") })),
  epub: async () => zipOf([{ name: "mimetype", data: Buffer.from("application/epub+zip") }, { name: "OEBPS/book.xhtml", data: Buffer.from("<html/>") }]),
  zip: async () => zipOf([{ name: "session-01.mp3", data: Buffer.alloc(64, 1) }]),
  mp3: async () => Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 4]), Buffer.alloc(4), Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]),
  m4a: async () => Buffer.concat([box("ftyp", Buffer.from("M4A \0\0\0\0M4A mp42isom", "latin1")), box("moov", Buffer.alloc(16)), box("mdat", Buffer.alloc(64, 7))]),
} as const;

/** A folder of its own for a test's files; `cleanup()` removes it. */
export async function scratchFolder(): Promise<{ dir: string; write(name: string, bytes: Uint8Array): Promise<string>; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "store-files-"));
  return {
    dir,
    async write(name, bytes) {
      const path = join(dir, name);
      await writeFile(path, bytes);
      return path;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The buyer downloads each digital item of the order once (a test order's generated PDF). */
export async function downloadDigitalItems(db: Database, order: Order, { reviewDelayDays = 7 } = {}): Promise<void> {
  const links = await issueDownloadLinks(db, order, { linkDays: 30, linkMaxDownloads: 10 });
  for (const { link } of links) {
    const pdf = await testDeliveryPdf({ productName: "Sample", orderNumber: order.number, createdAt: order.createdAt });
    const started = await startDownload(db, link.id, { asked: { firstByte: 0, lastByte: pdf.length - 1, fileId: null }, reviewDelayDays });
    if (started.kind !== "ok") throw new Error(`The download of ${link.id} was refused: ${started.state}`);
  }
}
