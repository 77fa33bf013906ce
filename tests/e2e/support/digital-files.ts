import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";

/**
 * Stores a product's file the way the README says, through `npm run admin -- add-file`. It runs
 * beside this process, not blocking it: a local S3 in this process must answer it.
 */
export function addFile(env: Record<string, string>, productId: string, path: string, locale?: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["scripts/admin.mjs", "add-file", productId, path, ...(locale ? ["--locale", locale] : [])], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** A PDF as the upload check sees one (its signature and its end marker) around random bytes, so that a copy can be told apart. */
export function randomPdf(bytes: number): Buffer {
  return Buffer.concat([Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1"), randomBytes(bytes), Buffer.from("\n%%EOF\n")]);
}

/** The download links an e-mail carries (in its HTML and its text part), once each, as paths on the store (the e-mail's origin is PUBLIC_URL's). */
export function downloadPathsIn(mail: string): string[] {
  return [...new Set([...mail.matchAll(/https?:\/\/[^\s/"]+(\/download\/[A-Za-z0-9._-]+)/g)].map((match) => match[1] ?? ""))];
}
