import type { Request } from "express";

/**
 * A request's header by any spelling of its name (`CF-IPCountry` as its provider writes it): Node
 * keeps header names in lower case, and gives some repeated headers as a list, joined here.
 */
export function headerOf(req: Request): (name: string) => string | undefined {
  return (name) => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value.join(", ") : value;
  };
}
