import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";
import { BadForm } from "./http.server";

/** The fields of an upload form and how many bytes of its file were written. */
export interface ReceivedUpload {
  fields: Map<string, string>;
  fileBytes: number;
}

/**
 * Reads a `multipart/form-data` body with one file part named `file`, writing that part to `path`
 * as it arrives (busboy parses the stream; nothing is buffered whole). At most `keepBytes` of the
 * file are written; the rest of a larger file is read and dropped. A few short text fields are kept.
 */
export async function receiveUpload(request: Request, path: string, keepBytes: number): Promise<ReceivedUpload> {
  if (!request.body) throw new BadForm("The form has no body.");
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": request.headers.get("content-type") ?? "" }, limits: { files: 1, fileSize: keepBytes, fields: 10, fieldSize: 1024, parts: 12 } });
  } catch {
    throw new BadForm("The file is sent as multipart/form-data with its boundary.");
  }
  const fields = new Map<string, string>();
  let fileBytes = 0;
  let written: Promise<void> = Promise.resolve();
  parser.on("field", (name, value) => {
    fields.set(name, value);
  });
  parser.on("file", (name, file) => {
    if (name !== "file") {
      file.resume();
      return;
    }
    file.on("data", (piece: Buffer) => {
      fileBytes += piece.length;
    });
    written = pipeline(file, createWriteStream(path));
    // Awaited once the whole body is parsed; a failure before then must not go unhandled.
    written.catch(() => undefined);
  });
  try {
    await pipeline(Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>), parser);
    await written;
  } catch (error) {
    if (error instanceof Error && /Unexpected end of form|Malformed|boundary/i.test(error.message)) throw new BadForm(`The form is malformed: ${error.message}.`);
    throw error;
  }
  return { fields, fileBytes };
}
