import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerExitError, startServer, type RunningServer } from "./support/server";

/** A local SMTP server that keeps every message it receives. */
async function startMailbox(): Promise<{ url: string; messages: string[]; close(): Promise<void> }> {
  const messages: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, _session, callback) {
      let message = "";
      stream.on("data", (chunk: Buffer) => (message += chunk.toString()));
      stream.on("end", () => {
        messages.push(message);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function placeOrder(baseUrl: string): Promise<string> {
  const shown = await fetch(`${baseUrl}/checkout/de?bundle=shape-3`);
  // The form's token counts only with the cookie the page set for this browser.
  const checkoutCookie = /vn_checkout=[^;]+/.exec(shown.headers.get("set-cookie") ?? "")?.[0] ?? "";
  const page = await shown.text();
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? "";
  const form = new URLSearchParams({
    email: "jonas@example.com",
    givenName: "Jonas",
    familyName: "Beispiel",
    addressLine1: "Hauptstraße 5",
    postalCode: "10115",
    city: "Berlin",
    country: "DE",
    method: "card",
    cardNumber: "4242 4242 4242 4242",
    cardExpiry: "12/30",
    cardCvc: "123",
    bundle: "shape-3",
    token,
  });
  const response = await fetch(`${baseUrl}/checkout/de?bundle=shape-3`, { method: "POST", body: form, redirect: "manual", headers: { Cookie: checkoutCookie } });
  expect(response.status).toBe(303);
  return /vn_order=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0] ?? "";
}

describe("orders survive the server", () => {
  let dataDir: string;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let servers: RunningServer[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-durability-"));
    mailbox = await startMailbox();
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await mailbox.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("refuses a second server on the same data directory, naming the first", async () => {
    const first = await startServer({ DATA_DIR: dataDir, SMTP_URL: mailbox.url });
    servers.push(first);
    const second = await startServer({ DATA_DIR: dataDir }).catch((error: unknown) => error);
    expect(second).toBeInstanceOf(ServerExitError);
    expect((second as ServerExitError).code).toBe(1);
    expect((second as ServerExitError).output).toContain(`in use by another storefront server (pid ${first.process.pid})`);
  });

  it("keeps a paid order and sends its one confirmation after a SIGKILL right after payment", async () => {
    const [first] = servers;
    if (!first) throw new Error("no server");
    const cookie = await placeOrder(first.url);
    first.process.kill("SIGKILL");
    await new Promise((resolve) => first.process.once("exit", resolve));
    servers = [];

    const restarted = await startServer({ DATA_DIR: dataDir, SMTP_URL: mailbox.url });
    servers.push(restarted);
    const thankYou = await (await fetch(`${restarted.url}/thankyou/de`, { headers: { Cookie: cookie } })).text();
    const number = /data-testid="order-number">([^<]+)</.exec(thankYou)?.[1] ?? "";
    expect(number).toMatch(/^VN-/);
    await expect.poll(() => mailbox.messages.filter((message) => message.includes(number)).length, { timeout: 15_000 }).toBe(1);
    const [mail = ""] = mailbox.messages;
    expect(mail).toContain("To: jonas@example.com");
    expect(mail).toContain("Content-Type: text/plain");
    expect(mail).toContain("Content-Type: text/html");
    expect(restarted.output()).not.toContain("jonas@example.com");
  });
});
