import { createHash } from "node:crypto";

/** Origins a setting brings in: Cloudflare Images, and the tag manager once a visitor consents. */
function thirdPartyOrigins(env: NodeJS.ProcessEnv): { script: string[]; img: string[]; connect: string[] } {
  const images = env.IMAGE_PROVIDER === "cloudflare" ? ["https://imagedelivery.net"] : [];
  const tagManager = env.GTM_ID ? ["https://www.googletagmanager.com"] : [];
  const analytics = env.GTM_ID ? ["https://*.google-analytics.com", "https://*.analytics.google.com"] : [];
  return {
    script: tagManager,
    img: [...images, ...tagManager, ...analytics],
    connect: [...tagManager, ...analytics],
  };
}

/**
 * The Content-Security-Policy of every page: our own origin, the inline scripts React Router
 * writes into the document (by nonce for pages rendered per request, by hash for prerendered
 * files), and only the third-party origins that the settings switch on.
 */
/** Origins one page opens besides the settings' (Stripe on the checkout alone). */
export interface PageOrigins {
  script?: readonly string[];
  frame?: readonly string[];
  connect?: readonly string[];
}

export function contentSecurityPolicy(inlineScriptSources: readonly string[], env: NodeJS.ProcessEnv = process.env, page: PageOrigins = {}): string {
  const origins = thirdPartyOrigins(env);
  const join = (...parts: readonly string[]) => parts.filter(Boolean).join(" ");
  return [
    "default-src 'self'",
    `script-src ${join("'self'", ...inlineScriptSources, ...origins.script, ...(page.script ?? []))}`,
    "style-src 'self'",
    `img-src ${join("'self'", "data:", ...origins.img)}`,
    "font-src 'self'",
    `connect-src ${join("'self'", ...origins.connect, ...(page.connect ?? []))}`,
    ...(page.frame?.length ? [`frame-src ${join("'self'", ...page.frame)}`] : []),
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

/** `'sha256-…'` sources for each inline script of a finished HTML document. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(inlineScript)) {
    const body = match[1] ?? "";
    hashes.add(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}
