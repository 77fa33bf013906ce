/**
 * The attribution report's query over 100,000 orders with their touches (`npm run bench`, or
 * `npm run bench -- --attribution` alone): seeds a fresh database in bulk, SQL-side, with orders
 * over 90 days in three currencies, their touches over a few dozen campaigns, bump and upsell
 * lines, refunds and page views per touch, then times `attributionReport` for the last 30 days
 * and prints p50 and p99. On PostgreSQL when `BENCH_DATABASE_URL` names one (a database of its
 * own beside it), else on the embedded PGlite. A figure, never a test assertion.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import pg from "pg";
import { createServer } from "vite";
import type { attributionReport as AttributionReport } from "../app/admin/attribution-report.server";
import { openDatabase, type OpenDatabase } from "../app/db/database.server";

const seededOrders = 100_000;
const runs = 30;

export interface AttributionBenchFigures {
  database: "PostgreSQL" | "PGlite";
  orders: number;
  rows: number;
  runs: number;
  seedSeconds: number;
  p50Ms: number;
  p99Ms: number;
}

/** A fresh database beside the one named, so the figures always mean 100,000 orders. */
async function freshPostgres(baseUrl: string): Promise<string> {
  const url = new URL(baseUrl);
  const name = `${url.pathname.slice(1) || "postgres"}_attribution`;
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  url.pathname = `/${name}`;
  return url.toString();
}

/** 100,000 orders and what the report reads of them, written by the database itself. */
async function seed(database: OpenDatabase): Promise<void> {
  const { db } = database;
  // Orders over the last 90 days; most paid, some refunded, some never paid.
  await db.execute(sql`
    insert into orders (id, number, status, market, locale, currency, email, given_name, family_name, address_line1, postal_code, city, country,
      items_minor, delivery_minor, delivery_vat_rate_bp, total_minor, vat_minor, checkout_token, test, created_at, paid_at)
    select gen_random_uuid(), 'VN-BENCH-' || n,
      (array['paid','paid','paid','fulfilled','refunded','pending_payment','payment_failed','cancelled'])[1 + n % 8],
      (array['DE','GB','SE'])[1 + n % 3], 'de_DE', (array['EUR','GBP','SEK'])[1 + n % 3],
      'bench' || n || '@example.com', 'Bench', 'Buyer', 'Street 1', '10115', 'Berlin', 'DE',
      4000 + n % 6000, 0, 0, 4000 + n % 6000, 0, 'bench-' || n, false,
      now() - (n % 90) * interval '1 day' - (n % 1440) * interval '1 minute',
      case when n % 8 in (5, 6) then null else now() - (n % 90) * interval '1 day' - (n % 1440) * interval '1 minute' + interval '2 minutes' end
    from generate_series(1, ${seededOrders}) as n`);
  // A touch for nine orders in ten, over 8 sources and 40 campaigns with 3 contents each.
  await db.execute(sql`
    insert into order_touches (order_id, source, medium, campaign, content, click_id_kind, click_id)
    select id, (array['meta','google','tiktok','microsoft','newsletter','news.example.org','direct','partner'])[1 + n % 8],
      (array['paid_social','cpc','paid_social','cpc','email','referral','none','affiliate'])[1 + n % 8],
      case when n % 8 = 6 then '' else 'campaign-' || (n % 40) end, 'ad-' || (n % 3),
      case when n % 8 = 0 then 'fbclid' end, case when n % 8 = 0 then 'IwAR' || n end
    from (select id, row_number() over (order by number) as n from orders) as numbered where n % 10 <> 0`);
  await db.execute(sql`
    insert into order_lines (order_id, bundle_id, product_id, product_name, kind, units, gross_minor, vat_rate_bp, vat_minor, source)
    select id, 'shape-3', 'shape', 'Shape', 'supplement', 1, total_minor, 700, 0, 'checkout' from orders`);
  await db.execute(sql`
    insert into order_lines (order_id, bundle_id, product_id, product_name, kind, units, gross_minor, vat_rate_bp, vat_minor, source)
    select id, 'mind-1', 'mind', 'Mind', 'supplement', 1, 990, 700, 0, case when total_minor % 2 = 0 then 'checkout:1' else 'upsell:upsell' end
    from orders where total_minor % 3 = 0`);
  await db.execute(sql`
    insert into payments (id, order_id, provider, method, purpose, status, amount_minor, currency, idempotency_key, return_path)
    select gen_random_uuid(), id, 'test', 'card', 'checkout', 'succeeded', total_minor, currency, 'bench-' || id, '/checkout/de' from orders where paid_at is not null`);
  await db.execute(sql`
    insert into refunds (id, order_id, payment_id, amount_minor, reason, status, idempotency_key)
    select gen_random_uuid(), orders.id, payments.id, orders.total_minor, 'bench', 'succeeded', 'bench-refund-' || orders.id
    from orders join payments on payments.order_id = orders.id where orders.status = 'refunded'`);
  // Page views per day, step and touch, as the beacon counts them.
  await db.execute(sql`
    insert into touch_views (day, step, market, source, medium, campaign, content, views)
    select distinct on (day, step, source, medium, campaign, content)
      to_char(orders.created_at, 'YYYY-MM-DD') as day, step, 'DE', source, medium, campaign, content, 20 + length(orders.number) as views
    from orders join order_touches on order_touches.order_id = orders.id cross join (values ('landing'), ('offer'), ('checkout')) as steps(step)`);
  await db.execute(sql`analyze`);
}

/**
 * The report's module as the store runs it. Its imports reach content read through Vite's
 * `import.meta.glob`, so it is loaded through Vite (no plugins needed), not by Node directly.
 */
async function loadReport(): Promise<{ attributionReport: typeof AttributionReport; close: () => Promise<void> }> {
  const vite = await createServer({ configFile: false, root: new URL("..", import.meta.url).pathname, server: { middlewareMode: true, hmr: false }, appType: "custom", logLevel: "error" });
  const module = (await vite.ssrLoadModule("/app/admin/attribution-report.server.ts")) as { attributionReport: typeof AttributionReport };
  return { attributionReport: module.attributionReport, close: () => vite.close() };
}

export async function attributionBench(): Promise<AttributionBenchFigures> {
  const { attributionReport, close } = await loadReport();
  const baseUrl = process.env.BENCH_DATABASE_URL;
  const dataDir = baseUrl ? null : await mkdtemp(join(tmpdir(), "bench-attribution-"));
  const database = await openDatabase(baseUrl ? { url: await freshPostgres(baseUrl) } : { dataDir: dataDir ?? "" });
  try {
    const seeding = performance.now();
    await seed(database);
    const seedSeconds = +((performance.now() - seeding) / 1000).toFixed(1);
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    // One run first, uncounted, so the figures are of a warm database, as a running store's is.
    const { rows } = await attributionReport(database.db, { from, to });
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now();
      await attributionReport(database.db, { from, to });
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (share: number) => +(times[Math.min(times.length - 1, Math.floor(times.length * share))] ?? Number.NaN).toFixed(1);
    return { database: baseUrl ? "PostgreSQL" : "PGlite", orders: seededOrders, rows: rows.length, runs, seedSeconds, p50Ms: at(0.5), p99Ms: at(0.99) };
  } finally {
    await database.close();
    await close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}
