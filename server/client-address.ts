import type { NextFunction, Request, Response } from "express";

/**
 * The header in which the server hands the app the client's address as Express worked it out
 * (`TRUST_PROXY` decides whose word on it is believed). Only the server sets it: a value a client
 * sent is removed first.
 */
export const clientAddressHeader = "x-storefront-client-address";

export function passClientAddress(req: Request, _res: Response, next: NextFunction): void {
  // Node keeps header names in lower case, as the constant is written.
  delete req.headers["x-storefront-client-address"];
  if (req.ip) req.headers[clientAddressHeader] = req.ip;
  next();
}
