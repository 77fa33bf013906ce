import { z } from "zod";
import { settingsProblems, variable } from "./settings-variable.js";
import { readProxyTrust, isHttpsUrl, type ProxyTrust } from "./proxy-trust.js";
import { readLogLevel, type LogLevel } from "./request-log.js";

/**
 * The HTTP server's own part of the store's one settings schema (the app composes these variables
 * into its schema, `app/store/settings.server.ts`). The server reads this part before it loads the
 * app's build, because it decides from it how many processes to start; a bad value stops it with a
 * message naming the variable (docs/decisions/0038-one-settings-schema.md).
 */
export interface ServerSettings {
  port: number;
  /** The address to listen on; unset, every address. */
  host: string | undefined;
  trustProxy: ProxyTrust;
  logLevel: LogLevel;
  /** Worker processes to start on this machine; 1 runs the server in the process itself. */
  webConcurrency: number;
  /** `PUBLIC_URL` is `https:`: every answer carries HSTS. */
  publicUrlIsHttps: boolean;
  /** The page cache's size in bytes (`PAGE_CACHE_MB`); 0 turns it off. */
  pageCacheBytes: number;
  /** React Router's mode for the request handler (the server always sets `production` before it starts). */
  mode: string | undefined;
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

function readPort(value: string | undefined): number {
  if (value === undefined || value === "") return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a whole number from 0 to 65535, got '${value}'.`);
  return port;
}

/** `PAGE_CACHE_MB` (default 64; 0 turns the cache off) in bytes. */
export function readPageCacheBytes(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return 64 * 1024 * 1024;
  const megabytes = Number(value);
  if (!Number.isFinite(megabytes) || megabytes < 0) throw new Error(`PAGE_CACHE_MB must be a number of megabytes (0 or more), got '${value}'.`);
  return Math.floor(megabytes * 1024 * 1024);
}

/** The server's variables, as the app's schema composes them. */
export const serverVariables = {
  PORT: variable(readPort),
  HOST: z.string().optional(),
  TRUST_PROXY: variable(readProxyTrust),
  LOG_LEVEL: variable(readLogLevel),
  WEB_CONCURRENCY: z.string().optional(),
  PAGE_CACHE_MB: variable(readPageCacheBytes),
  NODE_ENV: z.string().optional(),
};

const serverSchema = z
  .object({ ...serverVariables, DATABASE_URL: z.string().optional(), PUBLIC_URL: z.string().optional() })
  .transform((env, context): ServerSettings => {
    let webConcurrency = 1;
    try {
      webConcurrency = readWebConcurrency(env.WEB_CONCURRENCY, env.DATABASE_URL);
    } catch (error) {
      context.addIssue({ code: "custom", message: (error as Error).message, path: ["WEB_CONCURRENCY"] });
    }
    return {
      port: env.PORT,
      host: env.HOST || undefined,
      trustProxy: env.TRUST_PROXY,
      logLevel: env.LOG_LEVEL,
      webConcurrency,
      publicUrlIsHttps: isHttpsUrl(env.PUBLIC_URL),
      pageCacheBytes: env.PAGE_CACHE_MB,
      mode: env.NODE_ENV,
    };
  });

/** The server's settings from the environment; throws every bad variable's message. */
export function readServerSettings(env: Record<string, string | undefined>): ServerSettings {
  const parsed = serverSchema.safeParse(env);
  if (!parsed.success) throw new Error(settingsProblems(parsed.error));
  return parsed.data;
}
