import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { storefrontImages } from "./app/image/vite-plugin-images";

export default defineConfig({
  plugins: [storefrontImages()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "content/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts", "tests/fakes/**/*.test.ts"],
    environment: "node",
    // Database tests share two cores with the build and the browsers in CI: a slow moment is not a failure.
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
