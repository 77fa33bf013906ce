import { randomUUID } from "node:crypto";
import { text } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readS3Url } from "../store/commerce-settings";
import { scratchFolder } from "../test-support/digital-files";
import { startLocalS3, type LocalS3 } from "../test-support/s3";
import { filesystemStorage, s3Storage, type FileStorage } from "./storage.server";

let s3: LocalS3;
let scratch: Awaited<ReturnType<typeof scratchFolder>>;
const stores: FileStorage[] = [];
beforeAll(async () => {
  s3 = await startLocalS3();
  scratch = await scratchFolder();
});
afterAll(async () => {
  for (const store of stores) store.close();
  await s3.close();
  await scratch.cleanup();
});

const kinds: [string, () => Promise<FileStorage>][] = [
  ["the filesystem", async () => filesystemStorage(`${scratch.dir}/files`)],
  ["S3 (s3rver)", async () => s3Storage(readS3Url({ S3_URL: s3.url }) ?? (undefined as never))],
];

describe.each(kinds)("file storage on %s", (_name, open) => {
  let storage: FileStorage;
  beforeAll(async () => {
    storage = await open();
    stores.push(storage);
  });

  it("stores a file and reads it back whole and by range", async () => {
    const key = `ebook/${randomUUID()}.pdf`;
    const path = await scratch.write(`${randomUUID()}.pdf`, Buffer.from("0123456789abcdef"));
    await storage.put(key, path, "application/pdf");
    expect(await storage.size(key)).toBe(16);
    expect(await text(await storage.read(key, { start: 0, end: 15 }))).toBe("0123456789abcdef");
    expect(await text(await storage.read(key, { start: 10, end: 12 }))).toBe("abc");
  });

  it("knows what it does not hold, and forgets what it removed", async () => {
    const key = `mind/${randomUUID()}.zip`;
    expect(await storage.size(key)).toBeNull();
    const path = await scratch.write(`${randomUUID()}.zip`, Buffer.from("PK"));
    await storage.put(key, path, "application/zip");
    await storage.remove(key);
    expect(await storage.size(key)).toBeNull();
  });

  it.each(["../outside.pdf", "ebook/../../x.pdf", "/etc/passwd", "ebook/name.pdf"])("refuses the key %s, which the store never makes", async (key) => {
    await expect(storage.size(key)).rejects.toThrow(/storage key/);
  });
});

describe("S3_URL", () => {
  it.each([
    ["http://key:secret@127.0.0.1:9000/files", { endpoint: "http://127.0.0.1:9000", bucket: "files", region: "us-east-1", accessKeyId: "key", secretAccessKey: "secret" }],
    ["https://AK%2F1:s%40cret@s3.eu-central-1.amazonaws.com/vitanor-files?region=eu-central-1", { endpoint: "https://s3.eu-central-1.amazonaws.com", bucket: "vitanor-files", region: "eu-central-1", accessKeyId: "AK/1", secretAccessKey: "s@cret" }],
  ])("reads %s", (url, expected) => {
    expect(readS3Url({ S3_URL: url })).toEqual(expected);
  });

  it.each(["https://s3.example.com/files", "https://key:secret@s3.example.com/", "https://key:secret@s3.example.com/a/b", "s3://key:secret@bucket", "not a url"])("refuses %s, naming the form it needs", (url) => {
    expect(() => readS3Url({ S3_URL: url })).toThrow(/S3_URL must/);
  });
});
