import { z } from "zod";
import carriersFile from "../../content/commerce/carriers.json";
import { parseContent } from "../platform/content-file";
import { markets, type CountryCode } from "../market/markets";

/**
 * The carriers that take parcels in each market, with each one's tracking page (decision 26): content
 * data, checked like the other content files, so a wrong template fails the build, not a buyer's link.
 */

const numberPlaceholder = "{number}";
const marketCodes = markets.map((market) => market.country) as [CountryCode, ...CountryCode[]];

/** A regular expression written as text: it must compile and cover the whole number. */
const anchoredPattern = z
  .string()
  .refine((text) => text.startsWith("^") && text.endsWith("$"), { message: "must be anchored with ^ and $ so that it checks the whole number" })
  .refine(
    (text) => {
      try {
        new RegExp(text);
        return true;
      } catch {
        return false;
      }
    },
    { message: "must be a valid regular expression" },
  );

const carrier = z
  .object({
    name: z.string().min(2),
    trackingUrl: z
      .string()
      .url()
      .startsWith("https://", "must be an https address")
      .refine((url) => url.split(numberPlaceholder).length === 2, { message: `must contain ${numberPlaceholder} exactly once` }),
    source: z.string().url().startsWith("https://", "must be the carrier's own tracking page"),
    /** Null where the carrier documents no format: the generic pattern applies. */
    numberPattern: anchoredPattern.nullable(),
    patternSource: z.string().min(20, "must say where the format is documented").nullable(),
  })
  .strict()
  .refine((entry) => (entry.numberPattern === null) === (entry.patternSource === null), {
    message: "a number pattern needs its source, and a source its pattern",
    path: ["patternSource"],
  });

export const carriersFileSchema = z
  .object({
    genericPattern: anchoredPattern,
    genericPatternWhy: z.string().min(20),
    carriers: z.record(z.string().regex(/^[a-z0-9-]+$/, "must be lower-case letters, digits and dashes"), carrier),
    markets: z.object(Object.fromEntries(marketCodes.map((code) => [code, z.array(z.string()).min(1, "every market needs a carrier")]))).strict(),
  })
  .strict()
  .superRefine((file, context) => {
    for (const [market, ids] of Object.entries(file.markets)) {
      ids.forEach((id, index) => {
        if (!(id in file.carriers)) context.addIssue({ code: "custom", message: `"${id}" is not a carrier of this file`, path: ["markets", market, index] });
        if (ids.indexOf(id) !== index) context.addIssue({ code: "custom", message: `"${id}" is listed twice`, path: ["markets", market, index] });
      });
    }
    const served = new Set(Object.values(file.markets).flat());
    for (const id of Object.keys(file.carriers)) {
      if (!served.has(id)) context.addIssue({ code: "custom", message: "serves no market", path: ["carriers", id] });
    }
  });

const content = parseContent("content/commerce/carriers.json", carriersFileSchema, carriersFile);

export interface Carrier {
  id: string;
  name: string;
  trackingUrl: string;
  numberPattern: RegExp;
  /** The format its numbers have, in words, as the carrier documents it (or the generic one's). */
  numberFormat: string;
}

/** "UPS's Tracking Support: a package's number starts with 1Z…" → what follows the source's name. */
const formatWords = (source: string) => source.slice(source.indexOf(": ") + 2);

const carriers: ReadonlyMap<string, Carrier> = new Map(
  Object.entries(content.carriers).map(([id, entry]) => [
    id,
    {
      id,
      name: entry.name,
      trackingUrl: entry.trackingUrl,
      numberPattern: new RegExp(entry.numberPattern ?? content.genericPattern),
      numberFormat: formatWords(entry.patternSource ?? content.genericPatternWhy),
    },
  ]),
);

export function carrierById(id: string): Carrier | undefined {
  return carriers.get(id);
}

/** The carriers that deliver in a market, the usual one first. */
export function carriersFor(market: string): Carrier[] {
  return (content.markets[market as CountryCode] ?? []).map((id) => carriers.get(id)).filter((found): found is Carrier => found !== undefined);
}

export function servesMarket(carrierId: string, market: string): boolean {
  return (content.markets[market as CountryCode] ?? []).includes(carrierId);
}

/**
 * The carrier a warehouse wrote: its id (`royal-mail`), its name (`Royal Mail`) or one part of a
 * double name (`Colissimo`), in any case.
 */
export function findCarrier(written: string): Carrier | undefined {
  const wanted = written.trim().toLowerCase();
  if (!wanted) return undefined;
  return [...carriers.values()].find((candidate) => [candidate.id, candidate.name, ...candidate.name.split(" / ")].some((name) => name.toLowerCase() === wanted));
}

/** A tracking number as stored: upper case, without the spaces, dots and dashes labels print for reading. */
export function normalizeTrackingNumber(typed: string): string {
  return typed.toUpperCase().replace(/[\s.-]/g, "");
}

/** The stored form of a number if it has the carrier's format, else null. */
export function validTrackingNumber(carrier: Carrier, typed: string): string | null {
  const number = normalizeTrackingNumber(typed);
  return carrier.numberPattern.test(number) ? number : null;
}

/** The carrier's page for one parcel; the number is encoded, whatever it holds. */
export function trackingLink(carrier: Carrier, number: string): string {
  return carrier.trackingUrl.replace(numberPlaceholder, encodeURIComponent(number));
}
