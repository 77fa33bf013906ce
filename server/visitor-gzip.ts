import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * A kept page whose answers differ only in a marker of fixed length (a split test's stand-in
 * token) is gzipped once, in pieces, so each answer costs a copy and a checksum instead of a
 * compression (docs/decisions/0036-cached-pages-carry-each-visitors-token.md).
 *
 * The pieces between markers form one Deflate stream: each is compressed with the text before it
 * as its dictionary, and each marker travels in a stored block of its own, written per answer
 * with the visitor's bytes. While compressing, a marker's place in that dictionary holds NUL
 * bytes, which a page never contains, so no later piece can refer back into it: every reference
 * lands on text that is the same in every answer.
 */
export interface GzipPieces {
  /** The page's text between markers, as sent. */
  readonly texts: readonly Buffer[];
  /** Each text compressed, the last one finishing the stream. */
  readonly deflated: readonly Buffer[];
  readonly markerLength: number;
}

const deflateWindow = 32 * 1024;
/** ID1, ID2, Deflate, no flags, no time, maximum compression, operating system unknown (RFC 1952). */
const gzipHeader = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x02, 0xff]);

/** The pieces of `body` around every `marker`, or null when there is no marker or the page holds a NUL byte. */
export function gzipPieces(body: Buffer, marker: Buffer): GzipPieces | null {
  if (marker.length === 0 || marker.length > 0xffff || body.includes(0)) return null;
  const texts: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(marker); at !== -1; at = body.indexOf(marker, from)) {
    texts.push(body.subarray(from, at));
    from = at + marker.length;
  }
  if (texts.length === 0) return null;
  texts.push(body.subarray(from));

  const hole = Buffer.alloc(marker.length);
  const deflated: Buffer[] = [];
  let history = Buffer.alloc(0);
  texts.forEach((text, index) => {
    const last = index === texts.length - 1;
    const dictionary = history.subarray(Math.max(0, history.length - deflateWindow));
    deflated.push(
      deflateRawSync(text, {
        level: 9,
        // A sync flush ends byte-aligned without ending the stream, so a stored block can follow.
        finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
        ...(dictionary.length > 0 ? { dictionary } : {}),
      }),
    );
    history = Buffer.concat([history.subarray(Math.max(0, history.length - deflateWindow)), text, last ? Buffer.alloc(0) : hole]);
  });
  return { texts, deflated, markerLength: marker.length };
}

/** A stored Deflate block (not the last) holding `bytes` as they are (RFC 1951, 3.2.4). */
function storedBlock(bytes: Buffer): Buffer {
  const block = Buffer.alloc(5 + bytes.length);
  block[0] = 0x00;
  block.writeUInt16LE(bytes.length, 1);
  block.writeUInt16LE(~bytes.length & 0xffff, 3);
  bytes.copy(block, 5);
  return block;
}

/** The page gzipped with `replacement` in every marker's place; it must be as long as the marker. */
export function gzipForVisitor(pieces: GzipPieces, replacement: Buffer): Buffer {
  if (replacement.length !== pieces.markerLength) throw new Error("The replacement must be as long as the marker");
  const stored = storedBlock(replacement);
  const parts: Buffer[] = [gzipHeader];
  let checksum = 0;
  let size = 0;
  pieces.texts.forEach((text, index) => {
    parts.push(pieces.deflated[index] ?? Buffer.alloc(0));
    checksum = crc32(text, checksum);
    size += text.length;
    if (index < pieces.texts.length - 1) {
      parts.push(stored);
      checksum = crc32(replacement, checksum);
      size += replacement.length;
    }
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(checksum >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  parts.push(trailer);
  return Buffer.concat(parts);
}
