import { openDatabase } from "../db/database.server";
import { addOperator, type AddOperatorResult } from "../admin/operators.server";
import { addDigitalFile, type AddFileResult } from "../downloads/digital-files.server";
import { openFileStorage } from "../downloads/storage.server";
import { readStoreSettings } from "./settings.server";

/** `npm run admin -- add-user`: adds a back-office operator to the store the settings name. */
export async function addOperatorFromCommandLine(input: { email: string; role: string; password: string }): Promise<AddOperatorResult> {
  const settings = readStoreSettings(process.env);
  const database = await openDatabase(settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: settings.dataDir });
  try {
    return await addOperator(database.db, input);
  } finally {
    await database.close();
  }
}

/**
 * `npm run admin -- add-file`: stores a digital product's file in the store the settings name
 * (its database and its files folder or bucket), as the back office's upload does.
 */
export async function addFileFromCommandLine(input: { productId: string; path: string; locale: string | null }): Promise<AddFileResult & { storage: string }> {
  const settings = readStoreSettings(process.env);
  const database = await openDatabase(settings.databaseUrl ? { url: settings.databaseUrl } : { dataDir: settings.dataDir });
  const storage = await openFileStorage({ s3: settings.downloads.s3, dataDir: settings.dataDir });
  try {
    const result = await addDigitalFile(database.db, storage, { productId: input.productId, locale: input.locale, path: input.path, uploadedBy: "command line" }, { maxBytes: settings.downloads.fileMaxBytes });
    return { ...result, storage: storage.description };
  } finally {
    storage.close();
    await database.close();
  }
}
