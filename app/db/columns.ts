import { timestamp } from "drizzle-orm/pg-core";

/** Column helpers every domain's tables share. */

/** When the row was written, set by the database. */
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
