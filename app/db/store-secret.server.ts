import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "./database.server";
import { storeSecrets } from "./schema";

/**
 * The key that signs checkout forms and order-access cookies. Made on the first start and kept in
 * the database, so every instance on one database signs alike and nobody has to configure it.
 */
export async function loadSigningKey(db: Database): Promise<string> {
  await db.insert(storeSecrets).values({ name: "signing-key", value: randomBytes(32).toString("base64") }).onConflictDoNothing();
  const [row] = await db.select().from(storeSecrets).where(eq(storeSecrets.name, "signing-key"));
  if (!row) throw new Error("The signing key could not be stored");
  return row.value;
}

export function sign(key: string, purpose: string, value: string): string {
  return createHmac("sha256", key).update(`${purpose}\n${value}`).digest("base64url");
}

export function verifySignature(key: string, purpose: string, value: string, signature: string): boolean {
  const expected = Buffer.from(sign(key, purpose, value));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
