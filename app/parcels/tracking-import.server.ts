import { parse } from "csv-parse/sync";
import type { Database } from "../db/database.server";
import type { Operator } from "../operators/audit.server";
import { recordShipment, type ShipmentOutcome } from "./shipments.server";

/**
 * The warehouse's tracking CSV: one parcel a line, with the order number the fulfilment CSV gave
 * it, the carrier and the tracking number. Each line is recorded on its own, so a bad line is
 * refused with its reason and the good ones still apply; a line already recorded changes nothing.
 */

/** The columns the import reads, by header, in any order and case; others are ignored. */
export const trackingCsvColumns = { orderNumber: "Order number", carrier: "Carrier", trackingNumber: "Tracking number" } as const;

export interface ImportedLine {
  /** The line of the file, counting the header as line 1. */
  line: number;
  outcome: ShipmentOutcome;
}

export type TrackingImport = { kind: "imported"; lines: ImportedLine[] } | { kind: "unreadable"; reason: string };

interface ParsedRecord {
  record: string[];
  info: { lines: number };
}

/** A spreadsheet's export keeps the apostrophe our export put before formula-like cells. */
const cell = (record: string[], index: number) => (record[index] ?? "").replace(/^'/, "").trim();

export async function importTrackingCsv(
  db: Database,
  operator: Operator,
  csv: string,
  { reviewDelayDays }: { reviewDelayDays: number },
): Promise<TrackingImport> {
  let records: ParsedRecord[];
  try {
    records = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as ParsedRecord[];
  } catch (error) {
    return { kind: "unreadable", reason: `it is not a CSV file we can read (${error instanceof Error ? error.message : String(error)})` };
  }
  const [header, ...rows] = records;
  const headers = (header?.record ?? []).map((name) => name.trim().toLowerCase());
  const positions = Object.fromEntries(Object.entries(trackingCsvColumns).map(([key, name]) => [key, headers.indexOf(name.toLowerCase())])) as Record<keyof typeof trackingCsvColumns, number>;
  const missing = Object.entries(trackingCsvColumns).filter(([key]) => positions[key as keyof typeof trackingCsvColumns] < 0).map(([, name]) => `"${name}"`);
  if (missing.length > 0) return { kind: "unreadable", reason: `its first line must name the columns; ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} missing` };
  const lines: ImportedLine[] = [];
  for (const { record, info } of rows) {
    const outcome = await recordShipment(
      db,
      operator,
      { orderNumber: cell(record, positions.orderNumber), carrier: cell(record, positions.carrier), trackingNumber: cell(record, positions.trackingNumber) },
      { source: "csv-import", reviewDelayDays },
    );
    lines.push({ line: info.lines, outcome });
  }
  return { kind: "imported", lines };
}
