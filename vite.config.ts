import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { storefrontImages } from "./app/image/vite-plugin-images";
import { buildInfo } from "./app/platform/vite-plugin-build-info";

const icuParser = "@formatjs/icu-messageformat-parser";

/**
 * The browser only formats messages that the server has already parsed, so its build gets the
 * parser-less entry of the ICU library (see docs/decisions/0003-translations.md).
 */
function browserWithoutIcuParser(): Plugin {
  return {
    name: "browser-without-icu-parser",
    enforce: "pre",
    async resolveId(id, importer) {
      if (id !== icuParser || this.environment.name !== "client") return null;
      return this.resolve(`${icuParser}/no-parser.js`, importer, { skipSelf: true });
    },
  };
}

export default defineConfig({
  plugins: [browserWithoutIcuParser(), storefrontImages(), buildInfo(), reactRouter()],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
});
