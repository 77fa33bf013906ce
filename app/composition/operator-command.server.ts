import { openDatabase } from "../db/database.server";
import { addOperator, type AddOperatorResult } from "../admin/operators.server";
import { readCommerceSettings } from "../store/commerce-settings";

/** `npm run admin -- add-user`: adds a back-office operator to the store the settings name. */
export async function addOperatorFromCommandLine(input: { email: string; role: string; password: string }): Promise<AddOperatorResult> {
  const settings = readCommerceSettings(process.env);
  const database = await openDatabase(settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: settings.dataDir });
  try {
    return await addOperator(database.db, input);
  } finally {
    await database.close();
  }
}
