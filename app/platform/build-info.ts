/** The id of the build this code belongs to, set by the bundler (see vite.config.ts). */
declare const __BUILD_ID__: string;

export const buildId: string = typeof __BUILD_ID__ === "string" ? __BUILD_ID__ : "development";

export const latestBuildPath = "/builds/latest.json";

export function buildMetaPath(id: string): string {
  return `/builds/meta/${id}.json`;
}

export interface LatestBuild {
  id: string;
  timestamp: number;
}

export interface BuildMeta extends LatestBuild {
  prerendered: string[];
}
