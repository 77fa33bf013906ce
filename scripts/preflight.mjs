// `npm run preflight`: checks, with the settings of the environment (STORE_MODE=live and the
// providers' keys), everything that would lose money or orders once the store takes real payments.
// Buys nothing and changes nothing; prints one line per check and exits 1 when one fails.
import { appEntry } from "./app-build.mjs";

const entry = await appEntry();
try {
  const { report, ok } = await entry.preflightFromCommandLine();
  console.log(report);
  if (!ok) {
    console.log("\nNot ready to take real money: change what the lines marked FAIL say.");
    process.exit(1);
  }
  console.log("\nReady to take real money.");
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
