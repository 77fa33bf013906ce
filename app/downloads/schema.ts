import { sql } from "drizzle-orm";
import { type AnyPgColumn, bigint, bigserial, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "../db/columns";
import { orderLines, orders } from "../orders/schema";

/**
 * The files of digital products (docs/decisions/0027-digital-delivery.md): one row per upload, per product and locale (empty for
 * the product's default file, which every locale without its own gets). The highest version of a
 * product and locale is the one delivered; older ones stay listed, so an operator sees what changed.
 */
export const digitalFiles = pgTable(
  "digital_files",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productId: text("product_id").notNull(),
    /** A store locale (`de_DE`), or empty for the product's default file. */
    locale: text("locale").notNull().default(""),
    version: integer("version").notNull(),
    /** Where the storage keeps the bytes: a name the store made, never the uploaded file's name. */
    storageKey: text("storage_key").notNull().unique(),
    /** The name the buyer's download is saved under. */
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull(),
    sha256: text("sha256").notNull(),
    /** The operator's address, or `command line`. */
    uploadedBy: text("uploaded_by").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("digital_files_version_unique").on(table.productId, table.locale, table.version)],
);

/**
 * The download link of one digital order line. The link carries the row's id signed with the
 * store's key; nothing in this row could be replayed from a backup. Sending the links again gives
 * the same link fresh limits.
 */
export const downloadLinks = pgTable(
  "download_links",
  {
    id: uuid("id").primaryKey(),
    orderId: uuid("order_id")
      .notNull()
      .references(() => orders.id),
    orderLineId: bigint("order_line_id", { mode: "number" })
      .notNull()
      .unique()
      .references(() => orderLines.id),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    maxDownloads: integer("max_downloads").notNull(),
    /** Downloads counted since the link was last issued. */
    downloadCount: integer("download_count").notNull().default(0),
    firstDownloadAt: timestamp("first_download_at", { withTimezone: true }),
    lastDownloadAt: timestamp("last_download_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [index("download_links_order_idx").on(table.orderId), check("download_links_count_check", sql`${table.downloadCount} >= 0`)],
);

/** Every download of a link: when, which line and file, and how many bytes went out; no address is kept. */
export const downloads = pgTable(
  "downloads",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    linkId: uuid("link_id")
      .notNull()
      .references(() => downloadLinks.id),
    orderLineId: bigint("order_line_id", { mode: "number" })
      .notNull()
      .references(() => orderLines.id),
    /** The file served; none for the generated test-mode delivery. */
    fileId: bigint("file_id", { mode: "number" }).references(() => digitalFiles.id),
    /** Whether this request started the file (counted) or resumed it with a range (not counted). */
    counted: boolean("counted").notNull(),
    /** The first and last byte asked for: a download that sent fewer bytes than that was cut off. */
    firstByte: bigint("first_byte", { mode: "number" }).notNull().default(0),
    lastByte: bigint("last_byte", { mode: "number" }),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
    /** The cut-off download this one resumes without counting; each is resumed at most once. */
    continuesId: bigint("continues_id", { mode: "number" }).references((): AnyPgColumn => downloads.id),
    createdAt: createdAt(),
  },
  (table) => [index("downloads_link_idx").on(table.linkId), index("downloads_file_idx").on(table.fileId), uniqueIndex("downloads_continues_unique").on(table.continuesId)],
);
