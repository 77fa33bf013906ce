import "./production-env.js";
import cluster from "node:cluster";
import { createServer } from "node:http";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "./app.js";
import { reportListening, runPrimary } from "./cluster.js";
import { serverRuntime, type ServerRuntime } from "./front-door.js";
import { applyTimeouts, serverTimeouts } from "./limits.js";
import { readServerSettings } from "./settings.js";
import { gracefulShutdown } from "./shutdown.js";

function fail(error: unknown): never {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

let runtime: ServerRuntime;
try {
  // The one place the server reads the environment: everything below takes its values from here.
  runtime = serverRuntime(readServerSettings(process.env));
} catch (error) {
  fail(error);
}
const { port, host } = runtime.settings;

/** Serves the store in this process: on its own, or as one of WEB_CONCURRENCY workers. */
async function serve(): Promise<void> {
  const buildDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const { app, close } = await createApp(buildDir, runtime).catch(fail);
  const server = createServer({ connectionsCheckingInterval: serverTimeouts.connectionsCheckingInterval }, app);
  applyTimeouts(server);
  server.once("error", (error: NodeJS.ErrnoException) => fail(new Error(`The server cannot listen on ${host ?? "0.0.0.0"}:${port}: ${error.code ?? error.message}.`)));
  server.listen(port, host ?? "0.0.0.0", () => {
    const address = server.address();
    const boundPort = typeof address === "object" && address ? address.port : port;
    if (cluster.isWorker) reportListening(boundPort);
    else console.log(`Storefront listening on http://${host ?? "localhost"}:${boundPort}`);
  });
  const shutDown = gracefulShutdown({ server, lifecycle: runtime.lifecycle, closeStore: close, logger: runtime.logger });
  process.on("SIGTERM", () => shutDown("SIGTERM"));
  process.on("SIGINT", () => shutDown("SIGINT"));
}

if (cluster.isPrimary && runtime.settings.webConcurrency > 1) {
  runPrimary({ workers: runtime.settings.webConcurrency, host, logger: runtime.logger });
} else {
  await serve();
}
