// Starts the built store from a tree installed without devDependencies and checks that it serves an
// offer page and its health check: a package the running store imports but that sits among the
// devDependencies stops the server at start, which only a production install shows.
// Usage: node .ci/serves-production-install.mjs <tree>
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const tree = resolve(process.argv[2] ?? ".");
const paths = ["/offer/de", "/healthz"];
const dataDir = await mkdtemp(join(tmpdir(), "storefront-production-install-"));
const server = spawn(process.execPath, [join(tree, "build/app-server/main.js")], {
  cwd: tree,
  env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir },
  stdio: ["ignore", "pipe", "pipe"],
});
let output = "";
server.stdout.on("data", (chunk) => (output += chunk));
server.stderr.on("data", (chunk) => (output += chunk));

let failed = false;
try {
  const url = await new Promise((resolveUrl, reject) => {
    server.stdout.on("data", () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolveUrl(match[1]);
    });
    server.once("exit", (code) => reject(new Error(`The server exited with ${code} before listening:\n${output}`)));
  });
  for (const path of paths) {
    const response = await fetch(new URL(path, url), { redirect: "manual" });
    await response.arrayBuffer();
    console.log(`${path}: ${response.status}`);
    if (response.status !== 200) failed = true;
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  failed = true;
} finally {
  if (server.exitCode === null && server.signalCode === null) {
    server.kill("SIGTERM");
    await new Promise((done) => server.once("exit", done));
  }
  await rm(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.error("The production install does not serve the store.");
  process.exit(1);
}
