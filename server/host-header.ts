import type { NextFunction, Request, Response } from "express";

/**
 * What the app builds its request URL from must make a URL: a host name or an IP address with an
 * optional port. A `Host` (or, behind a trusted proxy, `X-Forwarded-Host`) that is not one gets
 * 400; an HTTP/1.0 request without any (an old load balancer's health check) is taken as asked of
 * `localhost`. A trusted `X-Forwarded-Proto` counts only when it names `http` or `https`. A request target beginning with `//` would read as another host's address: no page
 * has one, so it is 400 too.
 */
const hostPattern = /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

export function isValidHost(value: string): boolean {
  if (value.length > 260 || !hostPattern.test(value)) return false;
  try {
    new URL(`http://${value}/`);
    return true;
  } catch {
    return false;
  }
}

function refuse(res: Response, text: string): void {
  res.status(400).set("Cache-Control", "no-store").type("text/plain").send(text);
}

/**
 * Express takes the protocol from the first entry of a trusted `X-Forwarded-Proto` as it stands,
 * and the app builds a URL from it: only `http` and `https` are protocols. Anything else (`ht tp`,
 * `ftp`, `https:`) is dropped, so the request counts as arriving over the socket's own protocol.
 */
function keepOnlyWebProtocols(req: Request): void {
  const header = req.headers["x-forwarded-proto"];
  if (header === undefined) return;
  const first = (Array.isArray(header) ? header.join(",") : header).split(",")[0]?.trim().toLowerCase();
  if (first === "http" || first === "https") req.headers["x-forwarded-proto"] = first;
  else delete req.headers["x-forwarded-proto"];
}

export function checkHostAndTarget(req: Request, res: Response, next: NextFunction): void {
  if (req.originalUrl.startsWith("//")) return refuse(res, "This address cannot be opened.");
  const host = req.headers.host;
  if (host === undefined || host === "") req.headers.host = "localhost";
  else if (!isValidHost(host)) return refuse(res, "The Host header is not a host name.");
  const forwarded = req.app.enabled("trust proxy") ? req.headers["x-forwarded-host"] : undefined;
  if (typeof forwarded === "string" && !forwarded.split(",").every((entry) => isValidHost(entry.trim()))) return refuse(res, "The X-Forwarded-Host header is not a host name.");
  keepOnlyWebProtocols(req);
  next();
}
