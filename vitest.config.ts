import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { storefrontImages } from "./app/image/vite-plugin-images";

export default defineConfig({
  plugins: [storefrontImages()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "tests/fakes/**/*.test.ts", "content/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    environment: "node",
  },
});
