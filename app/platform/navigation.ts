/**
 * Programmatic navigation refuses external URLs unless the caller says so explicitly
 * (docs/architecture.md, 'Rules every page keeps'), so a tampered parameter can never send a visitor off-site.
 */

const scriptLikeProtocol = /^\s*(javascript|data|vbscript):/i;
const hasProtocol = /^[a-z][a-z\d+.-]*:/i;

export function isExternalUrl(url: string): boolean {
  return hasProtocol.test(url.trim()) || url.trim().startsWith("//");
}

export interface NavigationTargetOptions {
  /** Allow a URL outside the storefront (never a `javascript:`-style one). */
  external?: boolean;
}

/** Returns the URL when it may be navigated to; throws otherwise. */
export function checkNavigationTarget(url: string, options: NavigationTargetOptions = {}): string {
  if (scriptLikeProtocol.test(url)) {
    throw new Error(`Navigating to a ${url.split(":")[0]}: URL is never allowed.`);
  }
  if (isExternalUrl(url) && !options.external) {
    throw new Error(
      "Navigating to an external URL is not allowed by default. Use navigateTo(url, { external: true }).",
    );
  }
  return url;
}
