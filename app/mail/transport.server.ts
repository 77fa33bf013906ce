import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer from "nodemailer";

export interface OutgoingMail {
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  /** Stable per outbox row, so a message sent twice after a crash is recognisably the same one. */
  messageId: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  /** Where mail goes, for the start-up log: never a credential. */
  readonly description: string;
  /** Connects and logs in without sending anything (the go-live check); throws when that fails. */
  verify(): Promise<void>;
  close(): void;
}

/**
 * Through `SMTP_URL` when set, else as `.eml` files under `DATA_DIR/mail/` (docs/architecture.md,
 * 'Settings, data and e-mail').
 */
export function createMailTransport(smtpUrl: string | null, mailDir: string): MailTransport {
  if (smtpUrl) {
    const transporter = nodemailer.createTransport(smtpUrl);
    const url = new URL(smtpUrl);
    return {
      description: `SMTP server ${url.hostname}:${url.port || (url.protocol === "smtps:" ? 465 : 587)}`,
      async send(mail) {
        await transporter.sendMail(mail);
      },
      async verify() {
        await transporter.verify();
      },
      close: () => transporter.close(),
    };
  }
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    description: `files in ${mailDir} (set SMTP_URL to send them)`,
    async send(mail) {
      const { message } = (await composer.sendMail(mail)) as { message: Buffer };
      await mkdir(mailDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.messageId.replace(/[^\w.-]/g, "_")}.eml`;
      await writeFile(join(mailDir, name), message);
    },
    verify: () => mkdir(mailDir, { recursive: true }).then(() => undefined),
    close: () => composer.close(),
  };
}
