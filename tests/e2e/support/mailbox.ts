import { SMTPServer } from "smtp-server";

export interface Mailbox {
  url: string;
  /** Every message received, whole. */
  messages: string[];
  /** Messages whose DATA has started but not yet been accepted. */
  receiving(): number;
  close(): Promise<void>;
}

/** A local SMTP server that keeps every message; `acceptAfterMs` holds each one that long before accepting it. */
export async function startMailbox({ acceptAfterMs = 0 }: { acceptAfterMs?: number } = {}): Promise<Mailbox> {
  const messages: string[] = [];
  let inProgress = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      inProgress += 1;
      let message = "";
      stream.on("data", (chunk: Buffer) => (message += chunk.toString()));
      stream.on("end", () => {
        setTimeout(() => {
          messages.push(message);
          inProgress -= 1;
          callback();
        }, acceptAfterMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    receiving: () => inProgress,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
