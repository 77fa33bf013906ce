import { describe, expect, it } from "vitest";
import carriersFile from "../../content/commerce/carriers.json";
import { parseContent } from "../platform/content-file";
import { markets } from "../market/markets";
import { carrierById, carriersFileSchema, carriersFor, findCarrier, normalizeTrackingNumber, servesMarket, trackingLink, validTrackingNumber, type Carrier } from "./carriers.server";

const carrier = (id: string): Carrier => {
  const found = carrierById(id);
  if (!found) throw new Error(`no carrier ${id}`);
  return found;
};

/** The file with one change, for the schema's refusals. */
const changed = (change: (file: typeof carriersFile) => void) => {
  const copy = structuredClone(carriersFile);
  change(copy);
  return copy;
};

describe("the carriers content file", () => {
  it("passes its schema", () => {
    expect(() => parseContent("content/commerce/carriers.json", carriersFileSchema, carriersFile)).not.toThrow();
  });

  it.each([
    "DHL",
    "Deutsche Post",
    "La Poste / Colissimo",
    "bpost",
    "Royal Mail",
    "Österreichische Post",
    "PostNord",
    "GLS",
    "DPD",
    "Posti",
    "Swiss Post",
    "Correos",
    "Poste Italiane",
    "UPS",
  ])("has %s", (name) => {
    expect(Object.values(carriersFile.carriers).map((entry) => entry.name)).toContain(name);
  });

  it.each(markets.map((market) => [market.country]))("gives %s at least one carrier", (country) => {
    expect(carriersFor(country).length).toBeGreaterThan(0);
  });

  it.each([
    ["a template without the number", (file: typeof carriersFile) => void (file.carriers.ups.trackingUrl = "https://www.ups.com/track"), "must contain {number} exactly once"],
    ["a plain http template", (file: typeof carriersFile) => void (file.carriers.ups.trackingUrl = "http://www.ups.com/track?tracknum={number}"), "must be an https address"],
    ["a source that is no address", (file: typeof carriersFile) => void (file.carriers.ups.source = "the UPS site"), "carriers.ups.source"],
    ["a pattern that is not anchored", (file: typeof carriersFile) => void (file.carriers.ups.numberPattern = "1Z[0-9A-Z]{16}"), "must be anchored"],
    ["a pattern that does not compile", (file: typeof carriersFile) => void (file.carriers.ups.numberPattern = "^1Z[0-9A-Z{16}$"), "must be a valid regular expression"],
    ["a pattern without its source", (file: typeof carriersFile) => void ((file.carriers.ups as { patternSource: string | null }).patternSource = null), "a number pattern needs its source"],
    ["a market naming an unknown carrier", (file: typeof carriersFile) => void file.markets.DE.push("hermes"), 'markets.DE.5: "hermes" is not a carrier'],
    ["a market without carriers", (file: typeof carriersFile) => void (file.markets.IT = []), "every market needs a carrier"],
    ["a carrier serving no market", (file: typeof carriersFile) => void (file.markets.GB = file.markets.GB.filter((id) => id !== "royal-mail")), "carriers.royal-mail: serves no market"],
  ])("refuses %s, naming the field", (_, change, message) => {
    expect(() => parseContent("content/commerce/carriers.json", carriersFileSchema, changed(change))).toThrow(message);
  });
});

describe("tracking numbers and links", () => {
  it.each([
    ["dhl", "00340434161234567890", "https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&tracking-id=00340434161234567890"],
    ["deutsche-post", "RR123456789DE", "https://www.deutschepost.de/de/s/sendungsverfolgung.html?piececode=RR123456789DE"],
    ["colissimo", "6A12345678901", "https://www.laposte.fr/outils/suivre-vos-envois?code=6A12345678901"],
    ["bpost", "323212345678901234567890", "https://track.bpost.cloud/btr/web/#/search?itemCode=323212345678901234567890"],
    ["royal-mail", "AB123456789GB", "https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB"],
    ["austrian-post", "1001234567890012345678", "https://www.post.at/s/sendungssuche?snr=1001234567890012345678"],
    ["postnord", "00370712345678901234", "https://portal.postnord.com/tracking/details/00370712345678901234"],
    ["gls", "12345678901", "https://gls-group.com/track/12345678901"],
    ["dpd", "01234567890123", "https://tracking.dpd.de/status/en_US/parcel/01234567890123"],
    ["posti", "JJFI12345678901234567", "https://www.posti.fi/fi/seuranta#/lahetys/JJFI12345678901234567"],
    ["swiss-post", "99.00.123456.12345678", "https://service.post.ch/ekp-web/ui/entry/search/990012345612345678"],
    ["correos", "PQ4F6P0703673180181750T", "https://www.correos.es/es/es/herramientas/localizador/envios/detalle?tracking-number=PQ4F6P0703673180181750T"],
    ["poste-italiane", "RA123456789IT", "https://www.poste.it/cerca/index.html#/risultati-spedizioni/RA123456789IT"],
    ["ups", "1z 999 aa1 01 2345 6784", "https://www.ups.com/track?tracknum=1Z999AA10123456784"],
  ])("%s takes %s and links to its own tracking page", (id, typed, link) => {
    const number = validTrackingNumber(carrier(id), typed);
    expect(number).not.toBeNull();
    expect(trackingLink(carrier(id), number ?? "")).toBe(link);
  });

  it.each([
    ["ups", "1Z999AA1012345678", "one character short"],
    ["ups", "00340434161234567890", "not a UPS number"],
    ["dpd", "0123456789012", "13 digits"],
    ["royal-mail", "AB123456789DE", "not a British item"],
    ["swiss-post", "98.00.123456.12345678", "not starting 99"],
    ["colissimo", "6A1234567890", "12 characters"],
    ["postnord", "12345", "too short for any carrier"],
    ["poste-italiane", "RA12345678<IT>", "characters no carrier uses"],
    ["gls", "", "empty"],
  ])("%s refuses %s (%s)", (id, typed) => {
    expect(validTrackingNumber(carrier(id), typed)).toBeNull();
  });

  it("encodes the number into the template, whatever it holds", () => {
    expect(trackingLink(carrier("ups"), "1Z/../?a=b#c")).toBe("https://www.ups.com/track?tracknum=1Z%2F..%2F%3Fa%3Db%23c");
  });

  it("stores a number without the spaces, dots and dashes labels print", () => {
    expect(normalizeTrackingNumber(" 99.00.1234-56 78 ")).toBe("990012345678");
  });

  it.each([
    ["ups", "ups"],
    ["UPS", "ups"],
    ["Royal Mail", "royal-mail"],
    ["colissimo", "colissimo"],
    ["La Poste", "colissimo"],
    ["La Poste / Colissimo", "colissimo"],
    ["österreichische post", "austrian-post"],
    ["Hermes", undefined],
    ["", undefined],
  ])("reads the carrier written %j", (written, id) => {
    expect(findCarrier(written)?.id).toBe(id);
  });

  it.each([
    ["royal-mail", "GB", true],
    ["royal-mail", "DE", false],
    ["swiss-post", "CH-FR", true],
    ["colissimo", "BE", false],
    ["postnord", "FI", true],
  ])("%s serves %s: %s", (id, market, serves) => {
    expect(servesMarket(id, market)).toBe(serves);
  });
});
