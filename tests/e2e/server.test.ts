import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { startServer } from "./support/server";

const serverEntry = new URL("../../build/app-server/main.js", import.meta.url).pathname;

describe("the production server", () => {
  it("shuts down cleanly on SIGTERM, finishing the request in flight", async () => {
    const server = await startServer();
    const inFlight = fetch(`${server.url}/offer?utm_source=a`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    server.process.kill("SIGTERM");
    const response = await inFlight;
    expect(response.status).toBe(200);
    const [code] = await once(server.process, "exit");
    expect(code).toBe(0);
  });

  it.each(["abc", "-1", "70000", "3000.5"])("refuses PORT=%s with a message naming the variable", (port) => {
    const result = spawnSync(process.execPath, [serverEntry], { env: { ...process.env, PORT: port }, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`PORT must be a whole number from 0 to 65535, got '${port}'.`);
  });
});
