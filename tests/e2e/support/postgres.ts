import { randomBytes } from "node:crypto";
import pg from "pg";

/** The databases a browser test runs on: PGlite always, and PostgreSQL when TEST_DATABASE_URL is set. */
export const databaseKinds = process.env.TEST_DATABASE_URL ? (["pglite", "postgres"] as const) : (["pglite"] as const);

/** A new, empty database on the TEST_DATABASE_URL server, dropped again by `drop()`. */
export async function createPostgresDatabase(prefix: string): Promise<{ url: string; query<T extends pg.QueryResultRow>(sql: string): Promise<T[]>; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL ?? "";
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    url: url.toString(),
    async query<T extends pg.QueryResultRow>(sql: string) {
      return (await pool.query<T>(sql)).rows;
    },
    async drop() {
      await pool.end();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
