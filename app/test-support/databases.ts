import { afterAll, beforeAll } from "vitest";
import { randomBytes } from "node:crypto";
import { openDatabase, type OpenDatabase } from "../db/database.server";

/**
 * The databases the order tests run against (decision 12): PGlite always, and a real PostgreSQL when
 * `TEST_DATABASE_URL` is set, because PGlite's single session hides races that PostgreSQL shows.
 * Each call gives a new, empty, migrated database that `close()` removes again.
 */
export interface TestDatabase extends OpenDatabase {
  drop(): Promise<void>;
}

export const databaseKinds = process.env.TEST_DATABASE_URL ? (["pglite", "postgres"] as const) : (["pglite"] as const);

export async function openTestDatabase(kind: "pglite" | "postgres"): Promise<TestDatabase> {
  if (kind === "pglite") {
    const database = await openDatabase({ memory: true });
    return { ...database, drop: () => database.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `store_test_${randomBytes(6).toString("hex")}`;
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    ...database,
    async drop() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** A fresh database of `kind` for the enclosing `describe`, opened before its tests and dropped after. */
export function useTestDatabase(kind: "pglite" | "postgres"): { readonly db: TestDatabase["db"] } {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
  });
  return {
    get db() {
      if (!database) throw new Error("The test database is opened before the tests run");
      return database.db;
    },
  };
}
