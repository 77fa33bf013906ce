import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";

/** Every .eml file the server has written under its data directory so far, whole. */
export async function mailFiles(dataDir: string): Promise<string[]> {
  const dir = join(dataDir, "mail");
  const files = await readdir(dir).catch(() => [] as string[]);
  return Promise.all(files.map((file) => readFile(join(dir, file), "utf8")));
}

/** A message's text with quoted-printable soft breaks and escapes undone, to search for words. */
export function readable(eml: string): string {
  const joined = eml.replace(/=\r?\n/g, "");
  return joined.replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ""), "hex").toString("utf8"));
}
