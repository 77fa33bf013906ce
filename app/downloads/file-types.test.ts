import { describe, expect, it } from "vitest";
import { bufferSource, sampleFiles } from "../test-support/digital-files";
import { deliverableTypes, sniffFile } from "./file-types";

const cut = (bytes: Buffer, keep: number) => bytes.subarray(0, keep);

describe("judging an upload by its content", () => {
  it.each([
    ["pdf", "application/pdf"],
    ["epub", "application/epub+zip"],
    ["zip", "application/zip"],
    ["mp3", "audio/mpeg"],
    ["m4a", "audio/mp4"],
  ] as const)("takes a whole %s as %s", async (type, contentType) => {
    expect(await sniffFile(bufferSource(await sampleFiles[type]()))).toEqual({ kind: "ok", type });
    expect(deliverableTypes[type].contentType).toBe(contentType);
  });

  it.each<[string, () => Promise<Buffer>, string]>([
    ["a PDF without its end", async () => cut(await sampleFiles.pdf(), 400), "truncated"],
    ["a ZIP without its table of contents", async () => cut(await sampleFiles.zip(), 60), "truncated"],
    ["an EPUB cut in half", async () => cut(await sampleFiles.epub(), 70), "truncated"],
    ["an M4A whose audio is cut off", async () => cut(await sampleFiles.m4a(), 80), "truncated"],
    ["an MP3 that ends inside its tag", async () => cut(await sampleFiles.mp3(), 12), "truncated"],
    ["an HTML page named .pdf", async () => Buffer.from("<!DOCTYPE html><html><body>not a book</body></html>"), "unknown_type"],
    ["a PNG image", async () => Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), "unknown_type"],
    ["an MP4 video", async () => Buffer.concat([Buffer.from([0, 0, 0, 16]), Buffer.from("ftypisomisom", "latin1")]), "unknown_type"],
    ["an empty file", async () => Buffer.alloc(0), "empty"],
  ])("refuses %s", async (_case, make, reason) => {
    const sniffed = await sniffFile(bufferSource(await make()));
    expect(sniffed).toMatchObject({ kind: "refused", reason });
    if (sniffed.kind === "refused") expect(sniffed.detail).toMatch(/\.$/);
  });
});
