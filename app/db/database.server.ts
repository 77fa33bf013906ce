import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import { lockDataDir } from "./data-dir-lock.server";

/**
 * Both drivers give this same query builder; only the connection differs. It knows no tables: each
 * domain imports its own from its `schema.ts` and queries with them, and the migrations are SQL files,
 * so the ground never imports a domain (docs/decisions/0040-tables-in-their-domains.md).
 */
export type Database = PgDatabase<PgQueryResultHKT>;
export type Transaction = PgTransaction<PgQueryResultHKT, Record<string, never>, ExtractTablesWithRelations<Record<string, never>>>;
/** Anything queries can run on: the database or a transaction inside it. */
export type Queryable = Database | Transaction;

export interface OpenDatabase {
  db: Database;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

export type DatabaseTarget = { url: string } | { dataDir: string } | { memory: true };

// Two levels up from app/db/ in the sources and from build/server/ in the build.
const migrationsFolder = fileURLToPath(new URL("../../drizzle", import.meta.url));

/** Any fixed number: the key of the advisory lock under which migrations run. */
const migrationLockKey = 7_305_551;

/**
 * A PostgreSQL server that cannot be reached stops the start naming the setting and the server it
 * names (never the URL itself: it may carry the password), as every bad setting does.
 */
function unreachable(url: string, error: unknown): Error {
  const { hostname, port, password } = new URL(url);
  const cause = error instanceof Error ? error.message : String(error);
  const told = password ? cause.split(decodeURIComponent(password)).join("***") : cause;
  return new Error(`DATABASE_URL: cannot connect to the PostgreSQL server at ${hostname || "localhost"}:${port || "5432"} (${told}).`);
}

/**
 * Opens the store's database and applies pending migrations under an advisory lock, so that
 * several servers starting at once migrate once. PGlite is imported only when it is used: it costs
 * about 350 MB of memory.
 */
export async function openDatabase(target: DatabaseTarget): Promise<OpenDatabase> {
  if ("url" in target) {
    const { Pool } = (await import("pg")).default;
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new Pool({ connectionString: target.url, max: 10 });
    pool.on("error", (error) => console.error(`PostgreSQL connection error: ${error.message}`));
    const client = await pool.connect().catch(async (error: unknown) => {
      await pool.end().catch(() => undefined);
      throw unreachable(target.url, error);
    });
    try {
      await client.query("select pg_advisory_lock($1)", [migrationLockKey]);
      await migrate(drizzle({ client }), { migrationsFolder });
    } finally {
      await client.query("select pg_advisory_unlock($1)", [migrationLockKey]).catch(() => undefined);
      client.release();
    }
    return { db: drizzle({ client: pool }) as unknown as Database, kind: "postgres", close: () => pool.end() };
  }

  const release = "dataDir" in target ? lockDataDir(target.dataDir) : () => undefined;
  try {
    const { PGlite } = await import("@electric-sql/pglite");
    const { drizzle } = await import("drizzle-orm/pglite");
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    const client = "dataDir" in target ? await PGlite.create(join(target.dataDir, "pglite")) : await PGlite.create();
    const db = drizzle({ client });
    await client.query("select pg_advisory_lock($1)", [migrationLockKey]);
    await migrate(db, { migrationsFolder });
    await client.query("select pg_advisory_unlock($1)", [migrationLockKey]);
    return {
      db: db as unknown as Database,
      kind: "pglite",
      async close() {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
