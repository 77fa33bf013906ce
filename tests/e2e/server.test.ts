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

  it.each([
    [{ GTM_ID: "gtm-abc12" }, "'gtm-abc12' is not a valid GTM-ID (/^GTM-[0-9A-Z]+$/). Did you mean 'GTM-ABC12'?"],
    [{ IMAGE_PROVIDER: "imgix" }, "Unknown provider: imgix"],
    [{ IMAGE_PROVIDER: "cloudflare" }, "CLOUDFLARE_IMAGES_ACCOUNT_HASH must be set"],
    [{ PAGE_CACHE_MB: "lots" }, "PAGE_CACHE_MB must be a number of megabytes (0 or more), got 'lots'."],
  ])("refuses to start with %j, saying why", (env, message) => {
    const result = spawnSync(process.execPath, [serverEntry], { env: { ...process.env, PORT: "0", ...env }, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(message);
  });

  it.each(["abc", "-1", "70000", "3000.5"])("refuses PORT=%s with a message naming the variable", (port) => {
    const result = spawnSync(process.execPath, [serverEntry], { env: { ...process.env, PORT: port }, encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`PORT must be a whole number from 0 to 65535, got '${port}'.`);
  });
});
