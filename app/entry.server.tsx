import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { cachedRenderHeader, contentSecurityPolicy, nonceSource } from "../server/csp";
import { thirdPartyOrigins } from "./composition/settings.server";
import { CspNonceContext } from "./platform/csp-nonce";
import { stripModulePreloads } from "./platform/strip-module-preloads";

export { checkStartupSettings, thirdPartyOrigins } from "./composition/settings.server";
export { startStore, stopStore } from "./composition/start-store.server";
export { checkDatabase } from "./composition/health.server";
export { sharedHitCounter } from "./composition/shared-hit-counter.server";
export { seedStore } from "./composition/seed-store.server";
export { rendersOwnOrder } from "./upsells/order-page.server";
export { geoPageOf, localePageOf } from "./funnel/geo-page.server";
export { backOfficePaths, backOfficeUploadPaths, handleAdminRequest } from "./admin/admin-handler.server";
export { handleDownloadRequest } from "./composition/download-request.server";
export { routeExperiment } from "./experiments/routing.server";
export { addFileFromCommandLine, addOperatorFromCommandLine } from "./composition/operator-command.server";
export { preflightFromCommandLine } from "./composition/preflight-command.server";

export const streamTimeout = 5_000;

/**
 * Server errors are logged; a request the route cannot take (a POST to a page without a form,
 * an unknown payment) is the client's mistake, answered with its 4xx and not logged as ours.
 */
export function handleError(error: unknown, { request }: { request: Request }): void {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
}

/**
 * Prerendered files and the pages the server keeps in its page cache get hashes from the server
 * instead, so they carry no nonce (the server removes these headers from the requests it receives).
 */
function isPrerender(request: Request): boolean {
  return (
    request.headers.has("X-React-Router-Prerender-Data") ||
    request.headers.has("X-React-Router-Prerender") ||
    request.headers.has(cachedRenderHeader)
  );
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  const nonce = isPrerender(request) ? undefined : randomBytes(16).toString("base64");
  if (nonce) responseHeaders.set("Content-Security-Policy", contentSecurityPolicy([nonceSource(nonce)], thirdPartyOrigins()));

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Crawlers and prerendering get the complete document; browsers get the shell as soon as it is ready.
    const readyEvent = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode || !nonce
      ? "onAllReady"
      : "onShellReady";

    const { pipe, abort } = renderToPipeableStream(
      <CspNonceContext.Provider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </CspNonceContext.Provider>,
      {
        nonce,
        // A finished Suspense boundary (the footer, whose code the browser loads after the page's)
        // stays in place in the HTML; by default React moves boundaries that come after the first
        // 12.8 KB to the end of the document, hidden until an inline script puts them back.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyEvent]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }),
          );
          pipe(stripModulePreloads()).pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell is ready are reported through onShellError.
          if (shellRendered) console.error(error);
        },
      },
    );

    setTimeout(abort, streamTimeout + 1_000);
  });
}
