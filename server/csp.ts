import { createHash } from "node:crypto";

/**
 * The third-party origins the settings switch on (Cloudflare Images, the tag manager once a visitor
 * consents, a payment provider's script), per directive. The app's server build says which
 * (`thirdPartyOrigins` of `app/entry.server.tsx`), from the settings it read at start.
 */
export interface ThirdPartyOrigins {
  script: readonly string[];
  frame: readonly string[];
  img: readonly string[];
  connect: readonly string[];
}

export const noThirdPartyOrigins: ThirdPartyOrigins = { script: [], frame: [], img: [], connect: [] };

/**
 * The Content-Security-Policy of every page: our own origin, the inline scripts React Router
 * writes into the document (by nonce for pages rendered per request, by hash for prerendered
 * files), and only the third-party origins that the settings switch on.
 */
export function contentSecurityPolicy(inlineScriptSources: readonly string[], origins: ThirdPartyOrigins): string {
  const join = (...parts: readonly string[]) => parts.filter(Boolean).join(" ");
  return [
    "default-src 'self'",
    `script-src ${join("'self'", ...inlineScriptSources, ...origins.script)}`,
    "style-src 'self'",
    `img-src ${join("'self'", "data:", ...origins.img)}`,
    "font-src 'self'",
    `connect-src ${join("'self'", ...origins.connect)}`,
    ...(origins.frame.length ? [`frame-src ${join("'self'", ...origins.frame)}`] : []),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Set by the server (and only by it: it removes the header from every request it receives) on
 * the renders it keeps in its page cache. Such a document carries no nonce, since one document
 * answers many requests; the server allows its inline scripts by hash, as for prerendered files.
 */
export const cachedRenderHeader = "X-Storefront-Cached-Render";

export function nonceSource(nonce: string): string {
  return `'nonce-${nonce}'`;
}

const inlineScript = /<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** The text of each inline script of a finished HTML document. */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(inlineScript)].map((match) => match[1] ?? "");
}

/** The `'sha256-…'` source that allows one inline script. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

/** `'sha256-…'` sources for each inline script of a finished HTML document. */
export function inlineScriptHashes(html: string): string[] {
  return [...new Set(inlineScripts(html).map(scriptHashSource))];
}
