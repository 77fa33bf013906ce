import { sql } from "drizzle-orm";
import { store } from "../store/store.server";

/** `/healthz`'s look at the database: resolves when it answers a query, rejects when it does not. */
export async function checkDatabase(): Promise<void> {
  await store().db.execute(sql`select 1`);
}
