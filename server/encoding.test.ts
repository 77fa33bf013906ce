import { gunzipSync, brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressVariants, entityTag, ifNoneMatchHits, negotiateEncoding, parseAcceptEncoding, type CompressedEncoding, type Encoding } from "./encoding";

const both: CompressedEncoding[] = ["br", "gzip"];

describe("negotiateEncoding", () => {
  it.each<[string | undefined, CompressedEncoding[], Encoding]>([
    // What browsers send.
    ["gzip, deflate, br, zstd", both, "br"],
    ["gzip, br", both, "br"],
    ["br", both, "br"],
    ["gzip", both, "gzip"],
    ["GZIP, BR", both, "br"],
    ["x-gzip", both, "gzip"],
    // Weights decide before the server's preference.
    ["gzip;q=0.5, br;q=0.4", both, "gzip"],
    ["gzip;q=1.0, br;q=0.999", both, "gzip"],
    ["br;q=0.5, gzip;q=0.5", both, "br"],
    ["gzip; q=0.8, br ;Q=0.9", both, "br"],
    // q=0 refuses a coding.
    ["br;q=0", both, "identity"],
    ["br;q=0, gzip", both, "gzip"],
    ["gzip, br;q=0.000", both, "gzip"],
    // `*` stands for the codings not named.
    ["*", both, "br"],
    ["*;q=0.5", both, "br"],
    ["*, br;q=0", both, "gzip"],
    ["*;q=0", both, "identity"],
    ["*;q=0, identity", both, "identity"],
    // Identity: acceptable unless refused, and answered when nothing else is.
    ["identity", both, "identity"],
    ["identity;q=1, br;q=0.5", both, "identity"],
    ["identity;q=0", both, "identity"],
    ["identity;q=0, *;q=0", both, "identity"],
    ["deflate", both, "identity"],
    ["zstd, compress", both, "identity"],
    // No header, an empty one, garbage.
    [undefined, both, "identity"],
    ["", both, "identity"],
    [" , ;, ", both, "identity"],
    ["br;q=2", both, "identity"],
    ["br;q=abc, gzip", both, "gzip"],
    ["br;q=0.1234", both, "identity"],
    ["<script>", both, "identity"],
    ["gzip\u0000br", both, "identity"],
    // Only what the file has can be chosen.
    ["gzip, br", ["gzip"], "gzip"],
    ["br", ["gzip"], "identity"],
    ["gzip, br", [], "identity"],
  ])("Accept-Encoding %j with %j → %s", (header, available, expected) => {
    expect(negotiateEncoding(header, available)).toBe(expected);
  });

  it("keeps the highest weight of a coding named twice", () => {
    expect(parseAcceptEncoding("br;q=0, br;q=0.5")).toEqual(new Map([["br", 0.5]]));
  });
});

describe("ifNoneMatchHits", () => {
  const etag = entityTag("abc", "br");

  it.each<[string | undefined, boolean]>([
    ['"abc-br"', true],
    ['W/"abc-br"', true],
    ['"x", "abc-br"', true],
    ['"x",W/"abc-br"', true],
    ["*", true],
    [' * ', true],
    ['"abc"', false],
    ['"abc-gz"', false],
    ["abc-br", false],
    ["", false],
    [undefined, false],
  ])("If-None-Match %j", (header, expected) => {
    expect(ifNoneMatchHits(header, etag)).toBe(expected);
  });

  it("tags each encoding apart", () => {
    expect([entityTag("h", "identity"), entityTag("h", "br"), entityTag("h", "gzip")]).toEqual(['"h"', '"h-br"', '"h-gz"']);
  });
});

describe("compressVariants", () => {
  it("makes twins that decode to the body", async () => {
    const body = Buffer.from("<p>Bonjour</p>".repeat(200));
    const twins = await compressVariants(body, { brotliQuality: 5 });
    expect(brotliDecompressSync(twins.br as Buffer).equals(body)).toBe(true);
    expect(gunzipSync(twins.gzip as Buffer).equals(body)).toBe(true);
  });

  it("keeps no twin that is not smaller", async () => {
    expect(await compressVariants(Buffer.from("a"))).toEqual({});
  });
});
