import { openDatabase } from "../db/database.server";
import { seedOrders, type SeedSummary } from "../orders/seed.server";
import { readStoreSettings } from "./settings.server";

/** `npm run seed`: test orders in the store the settings name (the embedded database or PostgreSQL). */
export async function seedStore(count: number, seed?: number): Promise<SeedSummary> {
  const settings = readStoreSettings(process.env);
  const database = await openDatabase(settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: settings.dataDir });
  try {
    return await seedOrders(database.db, count, seed === undefined ? {} : { seed });
  } finally {
    await database.close();
  }
}
