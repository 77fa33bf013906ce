/**
 * Whether a request reached the store over HTTPS: its URL says so (directly, or as a trusted
 * proxy's `X-Forwarded-Proto` says), or the store's public address is `https:`. Cookies set in
 * answer to it are `Secure`; this is decided per request, so a store behind a TLS proxy without
 * `PUBLIC_URL` still keeps its cookies off plain HTTP.
 */
export function reachedOverHttps(request: Request, publicUrl: string): boolean {
  return new URL(request.url).protocol === "https:" || publicUrl.startsWith("https:");
}
