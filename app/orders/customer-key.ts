import { sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";

/**
 * The customer key (`customerKey` in codes/code-terms.ts) computed by the database from an address
 * stored as typed: both must give the same key for every address (a test compares them). The
 * orders table keeps an index on this expression, so a buyer's earlier orders are found without
 * reading every order; a query must use this same expression for the index to apply.
 */
export function customerKeySql(email: SQL | AnyPgColumn): SQL<string> {
  const address = sql`regexp_replace(lower(regexp_replace(${email}, '^\\s+|\\s+$', '', 'g')), '\\+[^@]*@', '@')`;
  return sql<string>`(case when ${address} ~ '@(gmail|googlemail)\\.com$' then replace(split_part(${address}, '@', 1), '.', '') || '@gmail.com' else ${address} end)`;
}
