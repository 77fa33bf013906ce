import type { NextFunction, Request, Response } from "express";

const maxUrlLength = 2048;
const maxSegmentLength = 256;

/** Why a request target cannot be served, or null when it can. */
export function malformedTarget(originalUrl: string): { status: 400 | 414; reason: string } | null {
  if (originalUrl.length > maxUrlLength) return { status: 414, reason: "The address is too long." };
  const path = originalUrl.split("?", 1)[0] ?? "";
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return { status: 400, reason: "The address is not correctly encoded." };
  }
  if (decoded.includes("\0")) return { status: 400, reason: "The address contains a forbidden character." };
  if (decoded.split("/").some((segment) => segment.length > maxSegmentLength)) {
    return { status: 414, reason: "A part of the address is too long." };
  }
  return null;
}

function page(reason: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Bad request</title></head><body><main><h1>This address cannot be opened</h1><p>${reason}</p><p><a href="/offer">Go to our offer</a></p></main></body></html>`;
}

/** Bad percent-encoding, NUL bytes and oversized URLs get a 4xx page before any routing. */
export function rejectMalformedUrls(req: Request, res: Response, next: NextFunction): void {
  const problem = malformedTarget(req.originalUrl);
  if (!problem) return next();
  res.status(problem.status).type("html").send(page(problem.reason));
}

/** What the storefront answers to: pages and files, and its forms and provider webhooks. */
const allowedMethods = ["GET", "HEAD", "POST"];

/** TRACE, PUT, DELETE and the like get 405 with the methods that are allowed, before any routing. */
export function rejectUnsupportedMethods(req: Request, res: Response, next: NextFunction): void {
  if (allowedMethods.includes(req.method)) return next();
  res.status(405).set("Allow", allowedMethods.join(", ")).type("text/plain").send("Method not allowed");
}
