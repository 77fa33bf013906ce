import { isIP } from "node:net";
import type { NextFunction, Request, Response } from "express";

/**
 * `TRUST_PROXY`: which reverse proxies in front of the server are believed when they say, in
 * `X-Forwarded-For` and `X-Forwarded-Proto`, who the client is and whether it came over HTTPS.
 * Unset, nothing is believed: anyone could write those headers. The value is handed to Express's
 * `trust proxy` setting in one of the two forms it accepts.
 */
export type ProxyTrust =
  | false
  /** How many proxies stand in front of the server (the last N addresses are theirs). */
  | number
  /** The proxies' addresses or networks (CIDR), or Express's names `loopback`, `linklocal`, `uniquelocal`. */
  | string[];

const namedSubnets = new Set(["loopback", "linklocal", "uniquelocal"]);
const expectedForm = "a number of proxies (such as 1) or a comma-separated list of addresses or networks (such as 10.0.0.0/8, 192.168.1.7, loopback)";

function isAddressOrNetwork(entry: string): boolean {
  if (namedSubnets.has(entry)) return true;
  const [address = "", prefix, ...rest] = entry.split("/");
  if (rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  // An IPv4 network may also be given with a dotted mask (10.0.0.0/255.0.0.0), as Express allows.
  if (family === 4 && isIP(prefix) === 4) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Reads `TRUST_PROXY`; a value in neither form stops the server with a message naming the variable. */
export function readProxyTrust(value: string | undefined): ProxyTrust {
  const trimmed = value?.trim() ?? "";
  if (trimmed === "" || trimmed === "0" || trimmed === "false") return false;
  if (/^\d+$/.test(trimmed)) {
    const hops = Number(trimmed);
    if (hops > 10) throw new Error(`TRUST_PROXY must be ${expectedForm}; ${hops} proxies in a row is not a real set-up.`);
    return hops;
  }
  const entries = trimmed.split(",").map((entry) => entry.trim());
  const wrong = entries.filter((entry) => !isAddressOrNetwork(entry));
  if (trimmed === "true" || wrong.length > 0) {
    const shown = trimmed === "true" ? "true (that would believe any client)" : wrong.map((entry) => `'${entry}'`).join(", ");
    throw new Error(`TRUST_PROXY must be ${expectedForm}, got ${shown}.`);
  }
  return entries;
}

/**
 * The client a rate limit counts: its address, or for IPv6 its /64 network (one subscriber
 * usually has a whole /64, and could otherwise change address for every request).
 */
export function clientKey(address: string | undefined): string {
  if (!address) return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const headGroups = head === "" ? [] : head.split(":");
  const tailGroups = tail === "" ? [] : tail.split(":");
  const missing = address.includes("::") ? 8 - headGroups.length - tailGroups.length : 0;
  const groups = [...headGroups, ...Array<string>(Math.max(0, missing)).fill("0"), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

export const strictTransportSecurity = "max-age=63072000; includeSubDomains";

/**
 * HSTS when the visitor came over HTTPS: the store's public address is `https:`, or the request
 * arrived over TLS (as a trusted proxy's `X-Forwarded-Proto` says).
 */
export function sendStrictTransportSecurity(publicUrlIsHttps: boolean) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (publicUrlIsHttps || req.secure) res.setHeader("Strict-Transport-Security", strictTransportSecurity);
    next();
  };
}

/** Whether `PUBLIC_URL` (checked by the store's own settings) is an `https:` address. */
export function isHttpsUrl(value: string | undefined): boolean {
  try {
    return value !== undefined && value !== "" && new URL(value).protocol === "https:";
  } catch {
    return false;
  }
}
