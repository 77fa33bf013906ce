import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { once } from "node:events";

const serverEntry = new URL("../../../build/app-server/main.js", import.meta.url);

export class ServerExitError extends Error {
  constructor(
    readonly code: number | null,
    readonly output: string,
  ) {
    super(`The server exited with ${code} before listening:\n${output}`);
  }
}

export interface RunningServer {
  url: string;
  process: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts the production server on a free port and resolves once it listens. Give it its own
 * `DATA_DIR` (the embedded database allows one server per directory).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(serverEntry)) throw new Error("No production build: run `npm run build` before the browser tests.");
  const ownDataDir = env.DATA_DIR ? null : await mkdtemp(join(tmpdir(), "storefront-server-"));
  const child = spawn(process.execPath, [serverEntry.pathname], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  // The request log can grow large under load: the first megabyte (start-up lines first) is kept.
  const keep = (chunk: Buffer) => {
    if (output.length < 1_000_000) output += chunk.toString();
  };
  const url = await new Promise<string>((resolve, reject) => {
    let listening = false;
    const onData = (chunk: Buffer) => {
      keep(chunk);
      const match = listening ? null : /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) {
        listening = true;
        resolve(match[1]);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", keep);
    child.once("exit", (code) => reject(new ServerExitError(code, output)));
  });
  return {
    url,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        await once(child, "exit");
      }
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}
