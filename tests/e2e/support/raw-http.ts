import { connect } from "node:net";

export interface RawAnswer {
  /** Everything the server sent, as text. */
  text: string;
  /** The status of the first answer, or null when none came. */
  status: number | null;
  /** When the server closed the connection, in ms after it was opened (null if it stayed open until `timeoutMs`). */
  closedAfterMs: number | null;
}

/**
 * Sends bytes over a plain TCP connection, as given: what `fetch` would refuse to send (lying
 * lengths, bad header bytes, a body cut short). `writes` are sent `everyMs` apart; the answer is
 * what arrives until the server closes or `timeoutMs` passes. `onFirstWrite` is called once the first
 * bytes are handed to the connection.
 */
export function rawRequest(
  url: string,
  writes: (string | Buffer)[],
  { everyMs = 0, timeoutMs = 5_000, endAfterWrites = false, onFirstWrite = () => {} } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({ text, status: status ? Number(status) : null, closedAfterMs: closed ? Date.now() - started : null });
    };
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    const timer = setTimeout(() => finish(false), timeoutMs);
    let index = 0;
    const writeNext = () => {
      if (done || socket.destroyed) return;
      const next = writes[index++];
      if (next === undefined) {
        if (endAfterWrites) socket.end();
        return;
      }
      socket.write(next);
      if (index === 1) onFirstWrite();
      if (everyMs > 0) setTimeout(writeNext, everyMs);
      else writeNext();
    };
    socket.once("connect", writeNext);
  });
}
