import { createHash } from "node:crypto";
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
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

export const sessionCookieName = "vitanor_admin";

export function readCookie(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=") || null;
  }
  return null;
}

/** HttpOnly, SameSite=Strict, only for /admin; Secure when the store is served over HTTPS. */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attributes = ["Path=/admin", "HttpOnly", "SameSite=Strict", ...(secure ? ["Secure"] : [])];
  return token ? [`${sessionCookieName}=${token}`, ...attributes].join("; ") : [`${sessionCookieName}=`, "Max-Age=0", ...attributes].join("; ");
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

const maxFormBytes = 32 * 1024;

export class BadForm extends Error {}

/** A posted form, size-checked; anything but an ordinary form encoding is a bad request. */
export async function readForm(request: Request): Promise<URLSearchParams> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) throw new BadForm("Forms are sent as application/x-www-form-urlencoded.");
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxFormBytes) throw new BadForm("The form is too large.");
  const text = await request.text();
  if (text.length > maxFormBytes) throw new BadForm("The form is too large.");
  return new URLSearchParams(text);
}
