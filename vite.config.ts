import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";
import { storefrontImages } from "./app/image/vite-plugin-images";
import { buildInfo } from "./app/funnel/vite-plugin-build-info";

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

/**
 * React Router 7 points every import at its development build, whose dev-only warnings stay
 * switched on in production (remix-run/react-router#14102); the package also ships the same code
 * with them switched off, which the browser build uses instead.
 */
function browserRouterProductionBuild(): Plugin {
  const builds: Readonly<Record<string, string>> = {
    "react-router": "dist/production/index.mjs",
    "react-router/dom": "dist/production/dom-export.mjs",
  };
  const require = createRequire(import.meta.url);
  const routerRoot = dirname(require.resolve("react-router/package.json"));
  return {
    name: "browser-router-production-build",
    enforce: "pre",
    resolveId(id) {
      if (this.environment.name !== "client" || this.environment.config.command !== "build") return null;
      const build = builds[id];
      return build ? join(routerRoot, build) : null;
    },
  };
}

/** How many page modules must import a module for it to join the shell chunk. */
const shellShareCount = 5;

/**
 * Shared by many pages but not by most: the image component with the image manifest (about 3 KB),
 * and the forms. They stay in chunks of their own, loaded by the pages that show them.
 */
const keptOutOfShell = /[\\/]app[\\/](image|forms)[\\/]|image-manifest/;

/**
 * One chunk for what (nearly) every page runs: everything the client entry, the root route and
 * the layouts' page frame import statically (React, React DOM, the router, the header,
 * translations, analytics), and the small parts that at least `shellShareCount` page modules
 * import (document title, page intro, money). One file compresses better and costs the browser
 * less than twenty small ones, and hydration no longer waits for a second round of downloads
 * after the page's modules. The rest of a page's code stays in its route's chunks.
 */
function sharedShellChunk(): Plugin {
  const staticImports = new Map<string, readonly string[]>();
  // The client entry and the root route stay chunks of their own, holding what they import.
  const seeds: string[] = [];
  const pageModules: string[] = [];
  let shell: Set<string> | undefined;
  const closure = (roots: readonly string[], known: ReadonlySet<string>): Set<string> => {
    const found = new Set<string>();
    const pending = [...roots];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      if (found.has(next) || known.has(next)) continue;
      found.add(next);
      pending.push(...(staticImports.get(next) ?? []));
    }
    return found;
  };
  const buildShell = (): Set<string> => {
    const frame = closure(seeds, new Set());
    const importers = new Map<string, number>();
    for (const page of pageModules) {
      for (const id of closure(staticImports.get(page) ?? [], frame)) importers.set(id, (importers.get(id) ?? 0) + 1);
    }
    const shared = [...importers].filter(([id, count]) => count >= shellShareCount && !keptOutOfShell.test(id)).map(([id]) => id);
    return new Set([...frame, ...[...closure(shared, frame)].filter((id) => !keptOutOfShell.test(id))]);
  };
  const inShell = (id: string): boolean => {
    shell ??= buildShell();
    // Stylesheets stay with the root route, which links them; only script goes into the chunk.
    return shell.has(id) && !/\.css(\?|$)/.test(id);
  };
  return {
    name: "shared-shell-chunk",
    configEnvironment(name) {
      if (name !== "client") return null;
      return { build: { rolldownOptions: { output: { codeSplitting: { groups: [{ name: "shell", test: inShell }] } } } } };
    },
    moduleParsed(info) {
      if (this.environment.name !== "client") return;
      staticImports.set(info.id, info.importedIds);
      if (/[\\/]app[\\/]root\.tsx$|[\\/]entry\.client\.tsx$/.test(info.id)) seeds.push(...info.importedIds);
      else if (/[\\/]app[\\/]chrome[\\/]page-frame\.tsx$/.test(info.id)) seeds.push(info.id);
      else if (info.isEntry && /[\\/]app[\\/]routes[\\/]/.test(info.id)) pageModules.push(info.id);
    },
  };
}

export default defineConfig({
  plugins: [
    browserRouterProductionBuild(),
    browserWithoutIcuParser(),
    sharedShellChunk(),
    storefrontImages(),
    buildInfo(),
    reactRouter(),
  ],
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
});
