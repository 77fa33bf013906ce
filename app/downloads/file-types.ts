/**
 * What an uploaded file is, judged by its bytes and never by its name (decision 27): PDF, EPUB,
 * MP3, M4A or ZIP, each by its signature, and each checked for an end where its format has one,
 * so that an upload cut off on the way is refused instead of delivered.
 */

export const deliverableTypes = {
  pdf: { contentType: "application/pdf", extension: "pdf" },
  epub: { contentType: "application/epub+zip", extension: "epub" },
  zip: { contentType: "application/zip", extension: "zip" },
  mp3: { contentType: "audio/mpeg", extension: "mp3" },
  m4a: { contentType: "audio/mp4", extension: "m4a" },
} as const;

export type DeliverableType = keyof typeof deliverableTypes;

export type Sniffed = { kind: "ok"; type: DeliverableType } | { kind: "refused"; reason: "empty" | "unknown_type" | "truncated"; detail: string };

/** Random access to the bytes being judged: a file handle, or a buffer in the tests. */
export interface ByteSource {
  size: number;
  read(offset: number, length: number): Promise<Uint8Array>;
}

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));

function lastIndexOf(bytes: Uint8Array, pattern: readonly number[]): number {
  for (let i = bytes.length - pattern.length; i >= 0; i--) {
    if (pattern.every((byte, j) => bytes[i + j] === byte)) return i;
  }
  return -1;
}

const truncated = (type: string, detail: string): Sniffed => ({ kind: "refused", reason: "truncated", detail: `The ${type} is cut off: ${detail}. Upload the complete file again.` });

/** A PDF ends with `%%EOF` (a trailing newline or a little padding may follow). */
async function checkPdf(source: ByteSource): Promise<Sniffed> {
  const tailLength = Math.min(source.size, 1024);
  const tail = await source.read(source.size - tailLength, tailLength);
  if (lastIndexOf(tail, [...Buffer.from("%%EOF")]) < 0) return truncated("PDF", "it has no end-of-file marker");
  return { kind: "ok", type: "pdf" };
}

/** A ZIP (an EPUB is one) ends with its central directory's end record, which says where the directory is. */
async function checkZip(source: ByteSource, type: "zip" | "epub"): Promise<Sniffed> {
  const name = type === "epub" ? "EPUB" : "ZIP file";
  // The end record is 22 bytes plus a comment of at most 65,535.
  const tailLength = Math.min(source.size, 22 + 65_535);
  const tail = await source.read(source.size - tailLength, tailLength);
  const at = lastIndexOf(tail, [0x50, 0x4b, 0x05, 0x06]);
  if (at < 0 || tail.length - at < 22) return truncated(name, "its table of contents at the end is missing");
  const view = new DataView(tail.buffer, tail.byteOffset + at, 22);
  const directorySize = view.getUint32(12, true);
  const directoryOffset = view.getUint32(16, true);
  // ZIP64 keeps 0xFFFFFFFF here and the real values elsewhere; those files are large enough to trust the record.
  if (directoryOffset !== 0xffffffff && directoryOffset + directorySize > source.size - tailLength + at) return truncated(name, "its table of contents points past its end");
  return { kind: "ok", type };
}

/** An MP3 starts with an ID3 tag followed by an MPEG audio frame, or with the frame itself. */
async function checkMp3(source: ByteSource, head: Uint8Array): Promise<Sniffed> {
  let frameAt = 0;
  if (ascii(head, 0, 3) === "ID3") {
    const size = ((head[6] ?? 0) << 21) | ((head[7] ?? 0) << 14) | ((head[8] ?? 0) << 7) | (head[9] ?? 0);
    const footer = ((head[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
    frameAt = 10 + size + footer;
    if (frameAt + 4 > source.size) return truncated("MP3", "it ends inside its tag, before any audio");
  }
  const frame = await source.read(frameAt, 4);
  if (!isMpegAudioFrame(frame)) return { kind: "refused", reason: "unknown_type", detail: unknownTypeDetail };
  return { kind: "ok", type: "mp3" };
}

/** An MPEG-1/2 Layer III frame header: 11 bits of sync, a version that exists, layer III. */
function isMpegAudioFrame(bytes: Uint8Array): boolean {
  const [first = 0, second = 0] = bytes;
  return first === 0xff && (second & 0xe0) === 0xe0 && (second & 0x18) !== 0x08 && (second & 0x06) === 0x02;
}

const audioBrands = new Set(["M4A ", "M4B ", "M4P "]);

/** An M4A is an MP4 file of audio brand, whose top-level boxes fill the file exactly and include the movie box. */
async function checkM4a(source: ByteSource, head: Uint8Array): Promise<Sniffed | null> {
  const ftypSize = new DataView(head.buffer, head.byteOffset, head.length).getUint32(0);
  const brands = [ascii(head, 8, 4)];
  for (let at = 16; at + 4 <= Math.min(ftypSize, head.length); at += 4) brands.push(ascii(head, at, 4));
  if (!brands.some((brand) => audioBrands.has(brand))) return null;
  let offset = 0;
  let hasMovie = false;
  while (offset < source.size) {
    if (offset + 8 > source.size) return truncated("M4A", "its last part is cut off");
    const header = await source.read(offset, 16);
    const view = new DataView(header.buffer, header.byteOffset, header.length);
    let size = view.getUint32(0);
    if (ascii(header, 4, 4) === "moov") hasMovie = true;
    if (size === 1) {
      if (header.length < 16) return truncated("M4A", "its last part is cut off");
      size = Number(view.getBigUint64(8));
    } else if (size === 0) {
      size = source.size - offset;
    }
    if (size < 8) return { kind: "refused", reason: "unknown_type", detail: "The M4A file is damaged: a part of it has an impossible size." };
    offset += size;
  }
  if (offset > source.size) return truncated("M4A", "its last part is shorter than it says");
  if (!hasMovie) return truncated("M4A", "the index of its audio is missing");
  return { kind: "ok", type: "m4a" };
}

const unknownTypeDetail = "The file is not a PDF, EPUB, MP3, M4A or ZIP file (judged by its content, not by its name).";

export async function sniffFile(source: ByteSource): Promise<Sniffed> {
  if (source.size === 0) return { kind: "refused", reason: "empty", detail: "The file is empty." };
  const head = await source.read(0, Math.min(source.size, 1024));
  if (ascii(head, 0, 5) === "%PDF-") return checkPdf(source);
  if (head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04) {
    // An EPUB's first entry is the uncompressed file `mimetype` holding its media type (EPUB OCF 3.3, 4.2.1).
    const epub = ascii(head, 30, 8) === "mimetype" && ascii(head, 38, 20) === "application/epub+zip";
    return checkZip(source, epub ? "epub" : "zip");
  }
  if (ascii(head, 4, 4) === "ftyp" && head.length >= 12) {
    const m4a = await checkM4a(source, head);
    if (m4a) return m4a;
  }
  if (ascii(head, 0, 3) === "ID3" || isMpegAudioFrame(head)) return checkMp3(source, head);
  return { kind: "refused", reason: "unknown_type", detail: unknownTypeDetail };
}
