import { randomBytes } from "node:crypto";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { gzipForVisitor, gzipPieces } from "./visitor-gzip";

const marker = Buffer.from(".0StandInForEachVisitorsOwnToken00000");
const token = () => Buffer.from(`.${randomBytes(27).toString("base64url")}`);

/** Text that repeats the marker's own letters around it, so a careless encoder would refer into it. */
function page(parts: readonly string[]): Buffer {
  return Buffer.from(parts.join(marker.toString()));
}
function piecesOf(body: Buffer) {
  const pieces = gzipPieces(body, marker);
  if (!pieces) throw new Error("expected a page with the marker");
  return pieces;
}
const filler = (length: number) => Array.from({ length }, (_, i) => `<a href="/checkout?b=${i % 7}&xp=ab12cd34.1">ForEachVisitorsOwn ${i}</a>`).join("");

describe("gzipForVisitor", () => {
  it.each([
    ["one marker in the middle", page(["<p>before ", " after</p>"])],
    ["a marker at the start and at the end", page(["", "middle", ""])],
    ["two markers side by side", page(["a", "", "b"])],
    ["markers further apart than Deflate's window", page([filler(600), filler(900), filler(50), filler(700)])],
    ["a hundred markers in a 50 kB page", page(Array.from({ length: 101 }, () => filler(8)))],
  ])("gives the page with the visitor's bytes in every marker's place: %s", (_case, body) => {
    const pieces = piecesOf(body);
    for (let round = 0; round < 3; round++) {
      const replacement = token();
      const expected = Buffer.from(body.toString().replaceAll(marker.toString(), replacement.toString()));
      expect(gunzipSync(gzipForVisitor(pieces, replacement)).equals(expected)).toBe(true);
    }
  });

  it("compresses about as well as one pass over the page", () => {
    const body = page(Array.from({ length: 21 }, () => filler(40)));
    const answer = gzipForVisitor(piecesOf(body), token());
    expect(answer.length / body.length).toBeLessThan(0.1);
  });

  it.each([
    ["no marker", Buffer.from("<p>plain</p>")],
    ["a NUL byte", page(["a\u0000b", "c"])],
  ])("leaves a page with %s to the per-answer encoder", (_case, body) => {
    expect(gzipPieces(body, marker)).toBeNull();
  });

  it("refuses a replacement of another length", () => {
    expect(() => gzipForVisitor(piecesOf(page(["a", "b"])), Buffer.from("."))).toThrow();
  });
});
