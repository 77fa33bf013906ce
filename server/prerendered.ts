import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { contentSecurityPolicy, inlineScriptHashes } from "./csp.js";

export interface PrerenderedFile {
  body: Buffer;
  contentType: string;
  etag: string;
  /** Only for documents: their inline scripts are allowed by hash. */
  contentSecurityPolicy?: string;
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

/**
 * Indexes the prerendered documents (`offer/fr/index.html` → `/offer/fr`) and their data payloads
 * (`offer/fr.data` → `/offer/fr.data`), so they are served from memory at their own URL: no
 * trailing-slash redirect, no disk access per request.
 */
export async function indexPrerendered(clientDir: string): Promise<Map<string, PrerenderedFile>> {
  const files = new Map<string, PrerenderedFile>();
  for await (const path of walk(clientDir)) {
    const urlPath = `/${relative(clientDir, path).split(sep).join("/")}`;
    if (urlPath.startsWith("/assets/")) continue;
    const isDocument = urlPath.endsWith("/index.html");
    if (!isDocument && !urlPath.endsWith(".data")) continue;
    const body = await readFile(path);
    const etag = `"${createHash("sha1").update(body).digest("base64url")}"`;
    if (isDocument) {
      const route = urlPath.slice(0, -"/index.html".length) || "/";
      files.set(route, {
        body,
        etag,
        contentType: "text/html; charset=utf-8",
        contentSecurityPolicy: contentSecurityPolicy(inlineScriptHashes(body.toString("utf8"))),
      });
    } else {
      files.set(urlPath, { body, etag, contentType: "text/x-script" });
    }
  }
  return files;
}
