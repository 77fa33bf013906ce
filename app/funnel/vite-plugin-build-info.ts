import type { Plugin } from "vite";
import { prerenderPaths } from "./prerender";
import { buildMetaPath, latestBuildPath, type BuildMeta, type LatestBuild } from "../platform/build-info";

/**
 * Gives the build an id (`__BUILD_ID__` in the code) and writes `builds/latest.json` and
 * `builds/meta/{id}.json` into the client build (decision 10).
 */
export function buildInfo(): Plugin {
  const timestamp = Date.now();
  const id = `${timestamp.toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  return {
    name: "storefront-build-info",
    config: () => ({ define: { __BUILD_ID__: JSON.stringify(id) } }),
    generateBundle() {
      if (this.environment.name !== "client") return;
      const latest: LatestBuild = { id, timestamp };
      const meta: BuildMeta = { ...latest, prerendered: prerenderPaths() };
      this.emitFile({ type: "asset", fileName: latestBuildPath.slice(1), source: JSON.stringify(latest) });
      this.emitFile({ type: "asset", fileName: buildMetaPath(id).slice(1), source: JSON.stringify(meta) });
    },
  };
}
