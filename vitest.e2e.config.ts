import { defineConfig } from "vitest/config";

/** Route and browser tests against the production build, served by our own server. */
export default defineConfig({
  test: {
    include: ["tests/e2e/**/*.test.ts"],
    globalSetup: ["tests/e2e/support/global-setup.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One Chromium at a time: the machines that run this have two cores.
    fileParallelism: false,
  },
});
