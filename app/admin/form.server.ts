import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import busboy from "busboy";

/**
 * The back office's one reader of posted forms. An ordinary form (`application/x-www-form-urlencoded`)
 * is small and read whole; a form with a file (`multipart/form-data`) is parsed by busboy as it
 * arrives, its file handed on a piece at a time, so nothing large is ever held in memory.
 */

export class BadForm extends Error {}

const maxFormBytes = 32 * 1024;

/** A posted form, size-checked; anything but an ordinary form encoding is a bad request. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) throw new BadForm("Forms are sent as application/x-www-form-urlencoded.");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxFormBytes) throw new BadForm("The form is too large.");
  const text = await request.text();
  if (text.length > maxFormBytes) throw new BadForm("The form is too large.");
  return new URLSearchParams(text);
}

/** The file part a form carries, and where its bytes go. */
export interface FilePart {
  /** The file input's name; other file parts are read and dropped. */
  name: string;
  /** At most this many bytes of the file are handed on; the rest of a larger file is read and dropped. */
  keepBytes: number;
  /** Takes the file's stream (a file on disk, the text of a CSV); the form is read when it has finished. */
  receive(file: Readable): Promise<void>;
  /** Why the form is refused when it is not `multipart/form-data`. */
  refusal: string;
}

/** The fields of a form with a file, whether the file part came, and how many of its bytes were handed on. */
export interface ReceivedForm {
  fields: Map<string, string>;
  fileCame: boolean;
  fileBytes: number;
}

/** A `multipart/form-data` body with one file part; a few short text fields are kept beside it. */
export async function readFormWithFile(request: Request, part: FilePart): Promise<ReceivedForm> {
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) throw new BadForm(part.refusal);
  if (!request.body) throw new BadForm("The form has no body.");
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { "content-type": request.headers.get("content-type") ?? "" }, limits: { files: 1, fileSize: part.keepBytes, fields: 10, fieldSize: 1024, parts: 12 } });
  } catch {
    throw new BadForm("The file is sent as multipart/form-data with its boundary.");
  }
  const received: ReceivedForm = { fields: new Map(), fileCame: false, fileBytes: 0 };
  let handedOn: Promise<void> = Promise.resolve();
  parser.on("field", (name, value) => {
    received.fields.set(name, value);
  });
  parser.on("file", (name, file) => {
    if (name !== part.name) {
      file.resume();
      return;
    }
    received.fileCame = true;
    file.on("data", (piece: Buffer) => {
      received.fileBytes += piece.length;
    });
    handedOn = part.receive(file);
    // Awaited once the whole body is parsed; a failure before then must not go unhandled.
    handedOn.catch(() => undefined);
  });
  try {
    await pipeline(Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>), parser);
    await handedOn;
  } catch (error) {
    if (error instanceof Error && /Unexpected end of form|Malformed|boundary/i.test(error.message)) throw new BadForm(`The form is malformed: ${error.message}.`);
    throw error;
  }
  return received;
}
