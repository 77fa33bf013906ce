import { defineConfig } from "drizzle-kit";

/** `npx drizzle-kit generate` writes SQL migrations from the schema, offline; they are committed. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/schema.ts",
  out: "./drizzle",
});
