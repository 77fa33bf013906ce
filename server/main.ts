import "./production-env.js";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "./app.js";

function readPort(value: string | undefined): number {
  if (value === undefined || value === "") return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a whole number from 0 to 65535, got '${value}'.`);
    process.exit(1);
  }
  return port;
}

const port = readPort(process.env.PORT);
const host = process.env.HOST || undefined;
const buildDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { app, close } = await createApp(buildDir).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

const server = app.listen(port, host ?? "0.0.0.0", () => {
  const address = server.address();
  const boundPort = typeof address === "object" && address ? address.port : port;
  console.log(`Storefront listening on http://${host ?? "localhost"}:${boundPort}`);
});

/** Finish the requests in flight, refuse new ones, and leave within ten seconds at the latest. */
function shutDown(signal: string): void {
  console.log(`${signal} received: closing the storefront server`);
  server.close(() => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
  server.closeIdleConnections();
  setTimeout(() => process.exit(1), 10_000).unref();
}

process.once("SIGTERM", () => shutDown("SIGTERM"));
process.once("SIGINT", () => shutDown("SIGINT"));
