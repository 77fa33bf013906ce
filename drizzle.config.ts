import { defineConfig } from "drizzle-kit";

/**
 * `npx drizzle-kit generate` writes SQL migrations from the schema, offline; they are committed, one
 * sequence for the whole store. Each domain keeps its tables in its own `schema.ts`; a new one is
 * listed here (docs/decisions/0040-tables-in-their-domains.md).
 */
export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./app/db/schema.ts",
    "./app/funnel/schema.ts",
    "./app/attribution/schema.ts",
    "./app/payments/test-gateway/schema.ts",
    "./app/mail/schema.ts",
    "./app/codes/schema.ts",
    "./app/orders/schema.ts",
    "./app/reviews/schema.ts",
    "./app/operators/schema.ts",
    "./app/parcels/schema.ts",
    "./app/downloads/schema.ts",
    "./app/experiments/schema.ts",
    "./app/conversions/schema.ts",
  ],
  out: "./drizzle",
});
