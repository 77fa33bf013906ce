import { readProxyTrust, isHttpsUrl, type ProxyTrust } from "./proxy-trust.js";
import { readLogLevel, type LogLevel } from "./request-log.js";

/**
 * The HTTP server's own settings, read from the environment at start (the app checks its own in
 * `checkStartupSettings`). A bad one stops the server with a message naming the variable.
 */
export interface ServerSettings {
  trustProxy: ProxyTrust;
  logLevel: LogLevel;
  /** Worker processes to start on this machine; 1 runs the server in the process itself. */
  webConcurrency: number;
  /** `PUBLIC_URL` is `https:`: every answer carries HSTS. */
  publicUrlIsHttps: boolean;
}

const maxWorkers = 64;

/** `WEB_CONCURRENCY`: more than one process needs PostgreSQL, because the embedded database allows one. */
export function readWebConcurrency(value: string | undefined, databaseUrl: string | undefined): number {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "") return 1;
  const count = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || count < 1 || count > maxWorkers) {
    throw new Error(`WEB_CONCURRENCY must be a whole number of worker processes from 1 to ${maxWorkers}, got '${value}'.`);
  }
  if (count > 1 && !databaseUrl) {
    throw new Error(
      `WEB_CONCURRENCY=${count} would start ${count} server processes, but the embedded database (used while DATABASE_URL is not set) allows only one. ` +
        "Set DATABASE_URL to a PostgreSQL server, or leave WEB_CONCURRENCY unset.",
    );
  }
  return count;
}

export function readServerSettings(env: Record<string, string | undefined>): ServerSettings {
  return {
    trustProxy: readProxyTrust(env.TRUST_PROXY),
    logLevel: readLogLevel(env.LOG_LEVEL),
    webConcurrency: readWebConcurrency(env.WEB_CONCURRENCY, env.DATABASE_URL),
    publicUrlIsHttps: isHttpsUrl(env.PUBLIC_URL),
  };
}
