// The production build the scripts run on: built first when it is not there yet.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const serverEntry = new URL("../build/app-server/main.js", import.meta.url);
const appBuild = new URL("../build/server/index.js", import.meta.url);

/** Builds the storefront unless both the app's server build and the HTTP server exist. */
export function ensureBuild() {
  if (existsSync(serverEntry) && existsSync(appBuild)) return;
  console.log("No production build yet: building it first.");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** What the app's server build exports to the scripts (seeding, operators), in production mode. */
export async function appEntry() {
  ensureBuild();
  process.env.NODE_ENV ??= "production";
  return (await import(appBuild.href)).entry.module;
}
