import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, stat } from "node:fs/promises";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { digitalProducts } from "../catalog/catalog.server";
import type { Database, Queryable } from "../db/database.server";
import { digitalFiles, downloads } from "./schema";
import { localeCodes } from "../market/markets";
import { deliverableTypes, sniffFile, type ByteSource } from "./file-types";
import type { FileStorage } from "./storage.server";

/**
 * The files of digital products (decision 27), per product and locale, with the product's default
 * file (no locale) for every locale that has none of its own. An upload is checked completely
 * before it is stored; a refused one leaves the current version as it was.
 */

export type DigitalFile = typeof digitalFiles.$inferSelect;

export type AddFileRefusal = "unknown_product" | "unknown_locale" | "empty" | "too_large" | "unknown_type" | "truncated";

export type AddFileResult = { kind: "added"; file: DigitalFile } | { kind: "refused"; reason: AddFileRefusal; message: string };

export interface AddFileInput {
  productId: string;
  /** A store locale (`de_DE`); empty or absent for the product's default file. */
  locale?: string | null;
  /** The upload, already on the local disk (the command line's file, or the back office's upload written out). */
  path: string;
  uploadedBy: string;
}

/** A store locale in any case and with `-` or `_` (`de-de`, `CH_fr`), or null when it is none. */
function storeLocale(value: string): string | null {
  const wanted = value.trim().replace("-", "_").toLowerCase();
  return localeCodes.find((code) => code.toLowerCase() === wanted) ?? null;
}

function fileSource(handle: Awaited<ReturnType<typeof open>>, size: number): ByteSource {
  return {
    size,
    async read(offset, length) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
      return buffer.subarray(0, bytesRead);
    },
  };
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const slug = (name: string) =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Checks the upload by its content, stores it and makes it the current version of its product and locale. */
export async function addDigitalFile(db: Database, storage: FileStorage, input: AddFileInput, { maxBytes }: { maxBytes: number }): Promise<AddFileResult> {
  const refuse = (reason: AddFileRefusal, message: string): AddFileResult => ({ kind: "refused", reason, message });
  const product = digitalProducts().find((candidate) => candidate.id === input.productId);
  if (!product) return refuse("unknown_product", `There is no digital product '${input.productId}'. Digital products: ${digitalProducts().map((p) => p.id).join(", ")}.`);
  const locale = input.locale ? storeLocale(input.locale) : "";
  if (locale === null) return refuse("unknown_locale", `'${input.locale}' is not a locale of the store. Locales: ${localeCodes.join(", ")} (or none for the product's default file).`);
  const { size } = await stat(input.path);
  if (size > maxBytes) return refuse("too_large", `The file is ${megabytes(size)}; files may be at most ${megabytes(maxBytes)} (DOWNLOAD_FILE_MAX_MB).`);
  const handle = await open(input.path, "r");
  let sniffed;
  try {
    sniffed = await sniffFile(fileSource(handle, size));
  } finally {
    await handle.close();
  }
  if (sniffed.kind === "refused") return refuse(sniffed.reason, sniffed.detail);
  const type = deliverableTypes[sniffed.type];
  const sha256 = await sha256Of(input.path);
  const storageKey = `${product.id}/${randomUUID()}.${type.extension}`;
  await storage.put(storageKey, input.path, type.contentType);
  try {
    const file = await db.transaction(async (tx) => {
      // Two uploads of one product and locale at once take the next two versions, one after the other.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`digital-file:${product.id}:${locale}`}))`);
      const [latest] = await tx
        .select({ version: digitalFiles.version })
        .from(digitalFiles)
        .where(and(eq(digitalFiles.productId, product.id), eq(digitalFiles.locale, locale)))
        .orderBy(desc(digitalFiles.version))
        .limit(1);
      const [row] = await tx
        .insert(digitalFiles)
        .values({
          productId: product.id,
          locale,
          version: (latest?.version ?? 0) + 1,
          storageKey,
          fileName: `${slug(product.name)}${locale ? `-${locale.toLowerCase().replace("_", "-")}` : ""}.${type.extension}`,
          contentType: type.contentType,
          bytes: size,
          sha256,
          uploadedBy: input.uploadedBy,
        })
        .returning();
      if (!row) throw new Error(`The file of ${product.id} was not recorded`);
      return row;
    });
    return { kind: "added", file };
  } catch (error) {
    await storage.remove(storageKey).catch(() => undefined);
    throw error;
  }
}

/** The file a buyer of this product in this locale gets: the locale's current version, else the default's. */
export async function currentFile(db: Queryable, productId: string, locale: string): Promise<DigitalFile | undefined> {
  const [file] = await db
    .select()
    .from(digitalFiles)
    .where(and(eq(digitalFiles.productId, productId), inArray(digitalFiles.locale, [locale, ""])))
    .orderBy(sql`${digitalFiles.locale} = ''`, desc(digitalFiles.version))
    .limit(1);
  return file;
}

/** One stored version by its id, for the back office to read. */
export async function fileById(db: Queryable, id: number): Promise<DigitalFile | undefined> {
  const [file] = await db.select().from(digitalFiles).where(eq(digitalFiles.id, id));
  return file;
}

export interface ProductFiles {
  productId: string;
  name: string;
  /** Every upload, newest version first within each locale; `current` marks the ones delivered. */
  files: (DigitalFile & { current: boolean; downloads: number })[];
}

/** For the back office: each digital product with its files, versions and how often each was downloaded. */
export async function filesByProduct(db: Queryable): Promise<ProductFiles[]> {
  const rows = await db
    .select({ file: digitalFiles, downloads: sql<number>`(select count(*) from ${downloads} where ${downloads.fileId} = ${digitalFiles.id} and ${downloads.counted})`.mapWith(Number) })
    .from(digitalFiles)
    .orderBy(asc(digitalFiles.productId), asc(digitalFiles.locale), desc(digitalFiles.version));
  return digitalProducts().map((product) => {
    const seen = new Set<string>();
    const files = rows
      .filter(({ file }) => file.productId === product.id)
      .map(({ file, downloads: count }) => {
        const current = !seen.has(file.locale);
        seen.add(file.locale);
        return { ...file, current, downloads: count };
      });
    return { productId: product.id, name: product.name, files };
  });
}

/**
 * Digital products that some locale's buyers would get no file for: neither a default file nor
 * one of that locale (test mode sends them a stand-in; live mode refuses to start).
 */
export async function productsWithoutFile(db: Queryable): Promise<{ id: string; name: string; missingLocales: string[] }[]> {
  const rows = await db.selectDistinct({ productId: digitalFiles.productId, locale: digitalFiles.locale }).from(digitalFiles);
  return digitalProducts()
    .map((product) => {
      const locales = new Set(rows.filter((row) => row.productId === product.id).map((row) => row.locale));
      return { ...product, missingLocales: locales.has("") ? [] : localeCodes.filter((locale) => !locales.has(locale)) };
    })
    .filter((product) => product.missingLocales.length > 0);
}
