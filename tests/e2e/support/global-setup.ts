import type { TestProject } from "vitest/node";
import { assertChromiumInstalled } from "./chromium";
import { startServer } from "./server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  assertChromiumInstalled();
  const server = await startServer();
  project.provide("baseUrl", server.url);
  return () => server.stop();
}
