// `npm run admin -- add-user <email> [--role owner|support]`: adds a back-office operator. The
// password is read from standard input (its first line) or, at a terminal, asked for twice.
// `npm run admin -- add-file <product id> <file> [--locale xx_XX]`: stores a digital product's file;
// it becomes the current version for that locale (or, without --locale, the product's default).
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { appEntry } from "./app-build.mjs";

const usage = [
  "Usage: npm run admin -- add-user <email> [--role owner|support]",
  "       (the password is read from standard input, or asked for at a terminal)",
  "       npm run admin -- add-file <product id> <file> [--locale de_DE]",
  "       (without --locale, the file is the product's default for every locale without its own)",
].join("\n");

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { role: { type: "string", default: "support" }, locale: { type: "string" } } });
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
const [command, ...args] = parsed.positionals;

/** Asks at the terminal without echoing what is typed. */
function askHidden(question) {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write("\n");
      resolve(answer);
    });
    rl._writeToOutput = (text) => {
      if (text.startsWith(question)) process.stdout.write(question);
    };
  });
}

async function readFirstLine() {
  const rl = createInterface({ input: process.stdin, terminal: false });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return "";
}

async function addUser([email, ...rest]) {
  if (!email || rest.length > 0 || parsed.values.locale !== undefined) {
    console.error(usage);
    process.exit(2);
  }
  let password;
  if (process.stdin.isTTY) {
    password = await askHidden("Password (at least 12 characters): ");
    const again = await askHidden("The same password again: ");
    if (password !== again) {
      console.error("The two passwords differ: no operator was added.");
      process.exit(1);
    }
  } else {
    password = await readFirstLine();
  }
  const entry = await appEntry();
  const result = await entry.addOperatorFromCommandLine({ email, role: parsed.values.role, password });
  if (result.kind === "refused") {
    console.error(`${result.message} No operator was added.`);
    process.exit(1);
  }
  console.log(`Added ${result.operator.email} (${result.operator.role}). Log in at /admin.`);
}

async function addFile([productId, file, ...rest]) {
  if (!productId || !file || rest.length > 0) {
    console.error(usage);
    process.exit(2);
  }
  const path = resolve(file);
  if (!existsSync(path) || !statSync(path).isFile()) {
    console.error(`There is no file ${file}. Nothing was stored.`);
    process.exit(1);
  }
  const entry = await appEntry();
  const result = await entry.addFileFromCommandLine({ productId, path, locale: parsed.values.locale ?? null });
  if (result.kind === "refused") {
    console.error(`${result.message} Nothing was stored; the current file stays as it was.`);
    process.exit(1);
  }
  const { file: stored } = result;
  const locale = stored.locale || "the default for every locale without its own";
  console.log(`Stored ${stored.contentType} (${stored.bytes} bytes) as version ${stored.version} of ${stored.productId}, ${locale}, in ${result.storage}. It is the current file now.`);
}

try {
  if (command === "add-user") await addUser(args);
  else if (command === "add-file") await addFile(args);
  else {
    console.error(usage);
    process.exit(2);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
