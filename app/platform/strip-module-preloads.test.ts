import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { stripModulePreloads } from "./strip-module-preloads";

const run = (chunks: string[]) => text(Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(stripModulePreloads()));

describe("stripModulePreloads", () => {
  it("removes the hints from the head, even when a tag is split across chunks", async () => {
    const html = await run([
      '<html><head><link rel="modulepreload" href="/assets/a.js"/><link rel="module',
      'preload" href="/assets/b.js"/><link rel="stylesheet" href="/assets/c.css"/></he',
      "ad><body>",
      '<p><link rel="modulepreload" href="/assets/kept-in-body.js"/></p></body></html>',
    ]);
    expect(html).toBe(
      '<html><head><link rel="stylesheet" href="/assets/c.css"/></head><body><p><link rel="modulepreload" href="/assets/kept-in-body.js"/></p></body></html>',
    );
  });

  it("passes a document without a head through", async () => {
    expect(await run(["<p>", "fragment</p>"])).toBe("<p>fragment</p>");
  });
});
