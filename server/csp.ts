import { createHash } from "node:crypto";

/**
 * The Content-Security-Policy of every page: only our own origin, plus the inline scripts that
 * React Router writes into the document, allowed by nonce (rendered per request) or by hash
 * (prerendered files, whose scripts are fixed at build time).
 */
export function contentSecurityPolicy(inlineScriptSources: readonly string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${inlineScriptSources.join(" ")}`.trim(),
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function nonceSource(nonce: string): string {
  return `'nonce-${nonce}'`;
}

const inlineScript = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** `'sha256-…'` sources for each inline script of a finished HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(inlineScript)) {
    const body = match[1] ?? "";
    hashes.add(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
