import { once } from "node:events";
import { connect, type AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { serveBackOffice, type FetchHandler } from "./app-bridge";

let closeServer: (() => void) | undefined;
afterEach(() => closeServer?.());

async function listen(handle: FetchHandler): Promise<number> {
  const app = express();
  app.use("/admin", serveBackOffice(handle));
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  closeServer = () => server.close();
  return (server.address() as AddressInfo).port;
}

/** Sends a post's head and the first part of its body over a raw socket, and returns what comes back before the rest is sent. */
async function postPartly(port: number, declared: number, sentPart: Buffer): Promise<string> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  socket.write(`POST /admin/files HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${declared}\r\n\r\n`);
  socket.write(sentPart);
  let answer = "";
  socket.on("data", (piece: Buffer) => (answer += piece.toString("latin1")));
  await once(socket, "close");
  return answer;
}

describe("serveBackOffice", () => {
  it("answers a post the app refuses without reading its body, and closes the connection instead of taking the rest", async () => {
    let bodyRead = false;
    const port = await listen(async (request) => {
      // The app's checks (session, origin) come first and refuse: the body is never asked for.
      bodyRead = request.bodyUsed;
      return new Response("Log in again", { status: 401 });
    });
    // 100 MB announced, 64 KB sent: the answer comes without the rest.
    const answer = await postPartly(port, 100 * 1024 * 1024, Buffer.alloc(64 * 1024, 0x41));
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(bodyRead).toBe(false);
  });

  it("gives the app the body as it reads it, piece by piece", async () => {
    const port = await listen(async (request) => {
      const reader = request.body?.getReader();
      let bytes = 0;
      for (let piece = await reader?.read(); piece && !piece.done; piece = await reader?.read()) bytes += piece.value.length;
      return new Response(String(bytes));
    });
    const response = await fetch(`http://127.0.0.1:${port}/admin/files`, { method: "POST", body: Buffer.alloc(3 * 1024 * 1024, 0x42) });
    expect(await response.text()).toBe(String(3 * 1024 * 1024));
    expect(response.headers.get("connection")).not.toBe("close");
  });

  it("pipes the answer's body stream", async () => {
    const port = await listen(async () => new Response(new Blob([Buffer.alloc(1024 * 1024, 0x43)]).stream(), { headers: { "Content-Type": "application/pdf" } }));
    const response = await fetch(`http://127.0.0.1:${port}/admin/files/1`);
    expect((await response.arrayBuffer()).byteLength).toBe(1024 * 1024);
  });
});
