import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { once } from "node:events";

const serverEntry = new URL("../../../build/app-server/main.js", import.meta.url);

export interface RunningServer {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the production server on a free port and resolves once it listens. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(serverEntry)) throw new Error("No production build: run `npm run build` before the browser tests.");
  const child = spawn(process.execPath, [serverEntry.pathname], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`The server exited with ${code} before listening:\n${output}`)));
  });
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}
