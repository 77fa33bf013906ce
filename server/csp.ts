import { createHash } from "node:crypto";

interface Origins {
  script: string[];
  frame: string[];
  connect: string[];
}

/**
 * The origins Stripe's Payment Element needs (https://docs.stripe.com/security/guide#content-security-policy),
 * on every storefront page while Stripe takes payments: buyers reach the checkout by client-side
 * navigation, which keeps the first page's policy (decision record 23). Stripe.js's own origin comes
 * from the settings, so a stand-in served elsewhere (the tests' fake) is allowed instead.
 */
function stripeOrigins(env: NodeJS.ProcessEnv): Origins {
  if (!env.STRIPE_PUBLISHABLE_KEY) return { script: [], frame: [], connect: [] };
  const js = new URL(env.STRIPE_JS_URL || "https://js.stripe.com/v3/").origin;
  if (js !== "https://js.stripe.com") return { script: [js], frame: [js], connect: [js] };
  return {
    script: [js, "https://*.js.stripe.com"],
    frame: [js, "https://*.js.stripe.com", "https://hooks.stripe.com"],
    connect: ["https://api.stripe.com"],
  };
}

/** Origins a setting brings in: Cloudflare Images, the payment provider, and the tag manager once a visitor consents. */
function thirdPartyOrigins(env: NodeJS.ProcessEnv): Origins & { img: string[] } {
  const images = env.IMAGE_PROVIDER === "cloudflare" ? ["https://imagedelivery.net"] : [];
  const tagManager = env.GTM_ID ? ["https://www.googletagmanager.com"] : [];
  const analytics = env.GTM_ID ? ["https://*.google-analytics.com", "https://*.analytics.google.com"] : [];
  const stripe = stripeOrigins(env);
  return {
    script: [...tagManager, ...stripe.script],
    frame: stripe.frame,
    img: [...images, ...tagManager, ...analytics],
    connect: [...tagManager, ...analytics, ...stripe.connect],
  };
}

/**
 * The Content-Security-Policy of every page: our own origin, the inline scripts React Router
 * writes into the document (by nonce for pages rendered per request, by hash for prerendered
 * files), and only the third-party origins that the settings switch on.
 */
export function contentSecurityPolicy(inlineScriptSources: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const origins = thirdPartyOrigins(env);
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
