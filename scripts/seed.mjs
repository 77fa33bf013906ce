// `npm run seed -- --orders N [--seed S]`: fills the store (DATA_DIR or DATABASE_URL) with N test
// orders across markets and statuses, for trying the back office and for the benchmark.
import { parseArgs } from "node:util";
import { appEntry } from "./app-build.mjs";

const usage = "Usage: npm run seed -- --orders N [--seed S]   (N from 1 to 100000)";
let values;
try {
  ({ values } = parseArgs({ options: { orders: { type: "string" }, seed: { type: "string" } } }));
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
const orders = Number(values.orders);
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (!Number.isInteger(orders) || orders < 1 || orders > 100_000 || (seed !== undefined && !Number.isInteger(seed))) {
  console.error(usage);
  process.exit(2);
}

const entry = await appEntry();
try {
  const summary = await entry.seedStore(orders, seed);
  console.log(`Seeded ${summary.orders} test orders.`);
  console.log(`By status: ${Object.entries(summary.byStatus).map(([status, n]) => `${status} ${n}`).join(", ")}`);
  console.log(`By market: ${Object.entries(summary.byMarket).map(([market, n]) => `${market} ${n}`).join(", ")}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
