import { defineConfig } from "vitest/config";

/** Route and browser tests against the production build, served by our own server. */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/support/global-setup.ts"],
    environment: "node",
    testTimeout: 30_000,
    // A hook starts a server (and often a provider's fake): about 10 s on a quiet machine, and
    // more than a minute on one under a load of 20, where a CI run beside other work once timed out.
    hookTimeout: 180_000,
    // One Chromium at a time: the machines that run this have two cores.
    fileParallelism: false,
  },
});
