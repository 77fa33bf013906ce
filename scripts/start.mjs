// `npm start`: serves the production build, building it first when there is none.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const serverEntry = new URL("../build/app-server/main.js", import.meta.url);
const appBuild = new URL("../build/server/index.js", import.meta.url);

if (!existsSync(serverEntry) || !existsSync(appBuild)) {
  console.log("No production build yet: building it first.");
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import(serverEntry.href);
