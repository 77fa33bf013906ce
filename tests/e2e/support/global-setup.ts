import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { assertChromiumInstalled } from "./chromium";
import { startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    /** The shared server's data directory: its embedded database and written e-mails. */
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  assertChromiumInstalled();
  const dataDir = await mkdtemp(join(tmpdir(), "storefront-e2e-"));
  const server = await startServer({ DATA_DIR: dataDir });
  project.provide("baseUrl", server.url);
  project.provide("dataDir", dataDir);
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
