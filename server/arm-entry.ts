import type { Response } from "express";

/**
 * A split test's arm page answered at its test's entry address (docs/decisions/0028-split-tests.md):
 * the request goes on as the arm's address, which `Content-Location` names. The answer is one
 * visitor's, so no shared cache may keep it (the page cache answers it `private, no-cache`).
 */
const armEntryLocal = "armEntry";

export function markArmEntry(res: Response, armAddress: string): void {
  res.locals[armEntryLocal] = true;
  res.setHeader("Content-Location", armAddress);
}

export function isArmEntry(res: Response): boolean {
  return res.locals[armEntryLocal] === true;
}

/** An arm's page that cannot be answered at the entry after all goes by the redirect instead. */
export function redirectToArm(res: Response): void {
  res.status(302).set({ Location: res.getHeader("Content-Location"), "Cache-Control": "no-store" });
  res.removeHeader("Content-Location");
  res.end();
}
