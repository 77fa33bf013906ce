import { createHash } from "node:crypto";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createCookie } from "react-router";
import adminCss from "./admin.css?raw";

/**
 * HTTP for the back office: whole HTML pages rendered on the server with no script at all, one
 * stylesheet of its own, forms that post and redirect. Nothing here is part of the storefront's
 * build for the browser.
 */

export const stylesheet = {
  body: adminCss,
  path: `/admin/admin.css?v=${createHash("sha256").update(adminCss).digest("hex").slice(0, 12)}`,
};

const policy = [
  "default-src 'none'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

const privateHeaders = {
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex, nofollow",
  "Content-Security-Policy": policy,
};

export function htmlPage(element: ReactElement, status = 200, headers: HeadersInit = {}): Response {
  const response = new Response(`<!DOCTYPE html>${renderToStaticMarkup(element)}`, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", ...privateHeaders },
  });
  new Headers(headers).forEach((value, name) => response.headers.append(name, value));
  return response;
}

/**
 * A page of a section, as a route's loader or action gives it: the front door renders it inside the
 * navigation of the signed-in operator (which it derives from the route list, so it is not known here).
 */
export interface Page {
  element: ReactElement;
  status: number;
}

export const page = (element: ReactElement, status = 200): Page => ({ element, status });

/** A file to save (CSV, JSON): never cached, never shown inline. */
export function download(body: string, contentType: string, filename: string): Response {
  return new Response(body, {
    headers: { ...privateHeaders, "Content-Type": contentType, "Content-Disposition": `attachment; filename="${filename}"` },
  });
}

export function redirect(location: string, headers: HeadersInit = {}): Response {
  const response = new Response(null, { status: 303, headers: { Location: location, ...privateHeaders } });
  new Headers(headers).forEach((value, name) => response.headers.append(name, value));
  return response;
}

export function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", ...privateHeaders } });
}

/** HttpOnly, SameSite=Strict, only for /admin; Secure when the store is served over HTTPS (decided per answer). */
const sessionCookie = createCookie("vitanor_admin", { path: "/admin", httpOnly: true, sameSite: "strict" });

/**
 * The session token the browser sent: null without the cookie, "" for a cookie that is not one of
 * ours (a forged or garbled value, which no session matches).
 */
export async function sessionTokenOf(request: Request): Promise<string | null> {
  const value: unknown = await sessionCookie.parse(request.headers.get("cookie"));
  if (value === null) return null;
  return typeof value === "string" ? value : "";
}

/** The `Set-Cookie` value giving the browser its session, or ending it (`null`). */
export function sessionCookieHeader(token: string | null, secure: boolean): Promise<string> {
  return token ? sessionCookie.serialize(token, { secure }) : sessionCookie.serialize("", { maxAge: 0, secure });
}

/**
 * A POST must come from a back-office page: its `Origin` is this server's own (as the browser
 * reached it) or the store's public address. A cross-site form, or a client that sends no Origin,
 * is refused before anything is read.
 */
export function fromOwnOrigin(request: Request, publicUrl: string): boolean {
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  return origin === new URL(request.url).origin || origin === new URL(publicUrl).origin;
}
