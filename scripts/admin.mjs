// `npm run admin -- add-user <email> [--role owner|support]`: adds a back-office operator. The
// password is read from standard input (its first line) or, at a terminal, asked for twice.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { appEntry } from "./app-build.mjs";

const usage = "Usage: npm run admin -- add-user <email> [--role owner|support]\n       (the password is read from standard input, or asked for at a terminal)";

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { role: { type: "string", default: "support" } } });
} catch (error) {
  console.error(`${error.message}\n${usage}`);
  process.exit(2);
}
const [command, email, ...rest] = parsed.positionals;
if (command !== "add-user" || !email || rest.length > 0) {
  console.error(usage);
  process.exit(2);
}

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
try {
  const result = await entry.addOperatorFromCommandLine({ email, role: parsed.values.role, password });
  if (result.kind === "refused") {
    console.error(`${result.message} No operator was added.`);
    process.exit(1);
  }
  console.log(`Added ${result.operator.email} (${result.operator.role}). Log in at /admin.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
