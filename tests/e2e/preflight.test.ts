import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The go-live check as an operator runs it before switching to live mode, on the production build:
 * `npm run preflight` with the environment's settings.
 */
describe("the go-live check on the command line", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "storefront-preflight-"));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  const env = (extra: Record<string, string>) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(STRIPE_|PAYPAL_|SMTP_URL|DATABASE_URL|PUBLIC_URL|STORE_MODE)/.test(name)));
    return { ...inherited, DATA_DIR: dataDir, ...extra };
  };

  it("in live mode without any provider's keys lists every check with its fix, and fails", { timeout: 120_000 }, () => {
    const run = spawnSync(process.execPath, ["scripts/preflight.mjs"], { env: env({ STORE_MODE: "live", PUBLIC_URL: "http://shop.example.test" }), encoding: "utf8" });
    expect(run.status, run.stderr).toBe(1);
    const out = run.stdout;
    for (const line of [
      /^ok {4}Store mode\s+live/m,
      /^FAIL {2}Public address\s+http:\/\/shop\.example\.test is not https/m,
      /^FAIL {2}Payment provider\s+neither Stripe nor PayPal is configured/m,
      /^FAIL {2}Payment methods per market\s+no provider is configured/m,
      /^FAIL {2}E-mail\s+no SMTP_URL/m,
      /^ok {4}Database\s+the embedded database answers/m,
      /^FAIL {2}Digital products' files\s+no file for/m,
    ]) {
      expect(out).toMatch(line);
    }
    // Every problem is followed by its fix.
    const problems = out.split("\n").filter((line) => /^(FAIL|WARN)/.test(line)).length;
    expect(out.split("\n").filter((line) => line.trim().startsWith("→ ")).length).toBe(problems);
    expect(out).toContain("Not ready to take real money");
  });

  it("lists a half-configured provider as a check of its own beside the others", { timeout: 120_000 }, () => {
    const run = spawnSync(process.execPath, ["scripts/preflight.mjs"], { env: env({ STORE_MODE: "live", STRIPE_SECRET_KEY: "sk_live_x" }), encoding: "utf8" });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}Settings\s+STRIPE_SECRET_KEY is set but STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are not/m);
    expect(run.stdout).toMatch(/^FAIL {2}E-mail\s+no SMTP_URL/m);
  });
});
