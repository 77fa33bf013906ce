import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database, Queryable, Transaction } from "../db/database.server";
import { orderDisputed } from "../orders/disputed-orders";
import { lineRefunded } from "../orders/refunded-lines";
import { downloadLinks, downloads } from "./schema";
import { orderLines, orders } from "../orders/schema";
import { outbox } from "../mail/schema";
import { sign, verifySignature } from "../db/store-secret.server";
import { recordAudit, type Operator } from "../operators/audit.server";
import { enqueueMail } from "../mail/outbox.server";
import { recordEvent, type Order, type OrderLine } from "../orders/order-records.server";
import { inviteReviews } from "../reviews/invitations.server";

/**
 * Download links (decision 27): one per digital order line. The link carries the row's id signed
 * with the store's key: an altered link fails its signature before any lookup, and a stolen
 * database backup holds nothing that opens a file. Limits (days, downloads) are set when the link
 * is issued and set afresh when the back office sends the links again.
 */

export type DownloadLink = typeof downloadLinks.$inferSelect;

export interface LinkLimits {
  linkDays: number;
  linkMaxDownloads: number;
}

export type LinkState = "ok" | "expired" | "used_up" | "revoked";

const dayMs = 24 * 60 * 60 * 1000;
const signingPurpose = "download";
/** A download cut off may be resumed (a range request) this long after it started, without counting again. */
const resumeWindowMs = dayMs;
/** Orders whose buyer keeps what they bought. */
const deliveredStatuses: readonly string[] = ["paid", "fulfilled", "partially_refunded"];

export function downloadToken(signingKey: string, linkId: string): string {
  return `${linkId}.${sign(signingKey, signingPurpose, linkId)}`;
}

const tokenPattern = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/;

/** The link id of a token whose signature holds, else null. */
export function linkIdOf(signingKey: string, token: string): string | null {
  const match = tokenPattern.exec(token);
  if (!match) return null;
  const [, id = "", signature = ""] = match;
  return verifySignature(signingKey, signingPurpose, id, signature) ? id : null;
}

export function downloadUrl(publicUrl: string, signingKey: string, linkId: string): string {
  return `${publicUrl}/download/${downloadToken(signingKey, linkId)}`;
}

/** Why a link gives no file, judged in this order: revoked beats expired beats used up. */
export function linkState(link: Pick<DownloadLink, "revokedAt" | "expiresAt" | "downloadCount" | "maxDownloads">, held: { lineHeld: boolean }, now = new Date()): LinkState {
  if (link.revokedAt || !held.lineHeld) return "revoked";
  if (link.expiresAt <= now) return "expired";
  if (link.downloadCount >= link.maxDownloads) return "used_up";
  return "ok";
}

/**
 * Whether the buyer still holds the line: the order delivered, not erased, the line not refunded, and
 * no dispute open or lost on the order (a file once downloaded cannot be taken back).
 */
export async function linesHeld(db: Queryable, orderId: string): Promise<Set<number>> {
  const rows = await db
    .select({ id: orderLines.id })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(and(eq(orderLines.orderId, orderId), sql`${orders.status} in ('paid', 'fulfilled', 'partially_refunded')`, isNull(orders.erasedAt), sql`not ${lineRefunded}`, sql`not ${orderDisputed}`));
  return new Set(rows.map((row) => row.id));
}

export interface LineLink {
  line: OrderLine;
  link: DownloadLink;
  state: LinkState;
}

/**
 * The links of a paid order's digital lines, issuing those not issued yet (the thank-you page or
 * the confirmation e-mail, whichever shows them first). Issuing twice changes nothing.
 */
export async function issueDownloadLinks(db: Queryable, order: Order, limits: LinkLimits, now = new Date()): Promise<LineLink[]> {
  if (!order.paidAt || !deliveredStatuses.includes(order.status) || order.erasedAt) return [];
  const lines = await db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.orderId, order.id), eq(orderLines.kind, "digital")))
    .orderBy(asc(orderLines.id));
  if (lines.length === 0) return [];
  await db
    .insert(downloadLinks)
    .values(lines.map((line) => ({ id: randomUUID(), orderId: order.id, orderLineId: line.id, issuedAt: now, expiresAt: new Date(now.getTime() + limits.linkDays * dayMs), maxDownloads: limits.linkMaxDownloads })))
    .onConflictDoNothing({ target: downloadLinks.orderLineId });
  return linksOfOrder(db, order.id, now);
}

/** The order's download links with their state, without issuing any. */
export async function linksOfOrder(db: Queryable, orderId: string, now = new Date()): Promise<LineLink[]> {
  const rows = await db
    .select({ line: orderLines, link: downloadLinks })
    .from(downloadLinks)
    .innerJoin(orderLines, eq(orderLines.id, downloadLinks.orderLineId))
    .where(eq(downloadLinks.orderId, orderId))
    .orderBy(asc(orderLines.id));
  const held = await linesHeld(db, orderId);
  return rows.map(({ line, link }) => ({ line, link, state: linkState(link, { lineHeld: held.has(line.id) }, now) }));
}

export type DownloadStart =
  | { kind: "ok"; downloadId: number; link: DownloadLink; order: Order; line: OrderLine; counted: boolean }
  | { kind: "refused"; state: Exclude<LinkState, "ok"> | "unknown"; order: Order | null };

/** The bytes one request asks for (the whole file or one range) and which file they are of. */
export interface AskedBytes {
  firstByte: number;
  lastByte: number;
  fileId: number | null;
}

/**
 * The download of this link that a range continues: one that was counted, started within the resume
 * window, sent fewer bytes than it asked for (it was cut off), was of the same file, has not been
 * continued yet, and ended at or after where the range starts. A range that starts at 0 continues
 * nothing: it is a download of its own.
 */
async function continuedDownload(tx: Transaction, linkId: string, asked: AskedBytes, now: Date): Promise<number | null> {
  if (asked.firstByte <= 0) return null;
  const [found] = await tx
    .select({ id: downloads.id })
    .from(downloads)
    .where(
      and(
        eq(downloads.linkId, linkId),
        eq(downloads.counted, true),
        gt(downloads.createdAt, new Date(now.getTime() - resumeWindowMs)),
        asked.fileId === null ? isNull(downloads.fileId) : eq(downloads.fileId, asked.fileId),
        isNotNull(downloads.lastByte),
        sql`${downloads.bytes} < ${downloads.lastByte} - ${downloads.firstByte} + 1`,
        sql`${downloads.firstByte} < ${asked.firstByte}`,
        sql`${downloads.firstByte} + ${downloads.bytes} >= ${asked.firstByte}`,
        sql`not exists (select 1 from ${downloads} as resumed where resumed.continues_id = ${downloads.id})`,
      ),
    )
    .orderBy(desc(downloads.id))
    .limit(1);
  return found?.id ?? null;
}

/**
 * One download begins: the link is checked under its row lock and counted, the download recorded,
 * and the first download of a line schedules its invitation to review `reviewDelayDays` later. A
 * range that continues a download cut off (see `continuedDownload`) is not counted, once; any other
 * request is a download, refused when the link has none left.
 */
export async function startDownload(
  db: Database,
  linkId: string,
  { asked, reviewDelayDays }: { asked: AskedBytes; reviewDelayDays: number },
  now = new Date(),
): Promise<DownloadStart> {
  return db.transaction(async (tx): Promise<DownloadStart> => {
    const [row] = await tx
      .select({ link: downloadLinks, order: orders, line: orderLines })
      .from(downloadLinks)
      .innerJoin(orders, eq(orders.id, downloadLinks.orderId))
      .innerJoin(orderLines, eq(orderLines.id, downloadLinks.orderLineId))
      .where(eq(downloadLinks.id, linkId))
      .for("update", { of: downloadLinks });
    if (!row) return { kind: "refused", state: "unknown", order: null };
    const { link, order, line } = row;
    const held = (await linesHeld(tx, order.id)).has(line.id);
    const state = linkState(link, { lineHeld: held }, now);
    if (state !== "ok" && state !== "used_up") return { kind: "refused", state, order };
    // The link's row lock makes the search and the insert below one step: a download is continued once.
    const continuesId = await continuedDownload(tx, link.id, asked, now);
    // A resumed download finishes even when it was the link's last one.
    if (state === "used_up" && continuesId === null) return { kind: "refused", state, order };
    const counted = continuesId === null;
    const [updated] = await tx
      .update(downloadLinks)
      .set({
        downloadCount: counted ? sql`${downloadLinks.downloadCount} + 1` : downloadLinks.downloadCount,
        firstDownloadAt: link.firstDownloadAt ?? now,
        lastDownloadAt: counted ? now : link.lastDownloadAt,
      })
      .where(eq(downloadLinks.id, link.id))
      .returning();
    const [recorded] = await tx
      .insert(downloads)
      .values({ linkId: link.id, orderLineId: line.id, fileId: asked.fileId, counted, firstByte: asked.firstByte, lastByte: asked.lastByte, continuesId, createdAt: now })
      .returning({ id: downloads.id });
    if (!updated || !recorded) throw new Error(`The download of link ${link.id} was not recorded`);
    if (!link.firstDownloadAt) {
      await recordEvent(tx, order.id, "download_started", { line: line.id });
      await inviteAfterFirstDownload(tx, order, line, new Date(now.getTime() + reviewDelayDays * dayMs));
    }
    return { kind: "ok", downloadId: recorded.id, link: updated, order, line, counted };
  });
}

/** A digital item is reviewed once its buyer could use it: after its first download, never without one. */
async function inviteAfterFirstDownload(tx: Transaction, order: Order, line: OrderLine, sendAfter: Date): Promise<void> {
  await inviteReviews(tx, order, "digital", sendAfter, { lineIds: [line.id] });
}

/** How many bytes a download sent, once it has finished or was cut off. */
export async function finishDownload(db: Queryable, downloadId: number, bytes: number): Promise<void> {
  await db.update(downloads).set({ bytes }).where(eq(downloads.id, downloadId));
}

export const downloadLinksMailKind = "download-links";

export type ReissueResult = { kind: "sent"; links: number } | { kind: "already_sent" } | { kind: "refused"; reason: "unknown_order" | "erased" | "not_delivered" | "no_digital_line" };

/**
 * The back office sends the download links again: each line the buyer still holds gets fresh limits
 * (the same link, so an older e-mail works again) and one e-mail lists them. `requestId` comes from
 * the form, so a form sent twice sends one e-mail.
 */
export async function reissueDownloadLinks(db: Database, operator: Operator, orderId: string, requestId: string, limits: LinkLimits, now = new Date()): Promise<ReissueResult> {
  return db.transaction(async (tx): Promise<ReissueResult> => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
    if (!order) return { kind: "refused", reason: "unknown_order" };
    if (order.erasedAt) return { kind: "refused", reason: "erased" };
    if (!order.paidAt || !deliveredStatuses.includes(order.status)) return { kind: "refused", reason: "not_delivered" };
    const dedupeKey = `${downloadLinksMailKind}:${order.id}:${requestId}`;
    const [sent] = await tx.select({ id: outbox.id }).from(outbox).where(eq(outbox.dedupeKey, dedupeKey));
    if (sent) return { kind: "already_sent" };
    await issueDownloadLinks(tx, order, limits, now);
    const held = await linesHeld(tx, order.id);
    const links = (await linksOfOrder(tx, order.id, now)).filter(({ line, link }) => held.has(line.id) && !link.revokedAt);
    if (links.length === 0) return { kind: "refused", reason: "no_digital_line" };
    for (const { link } of links) {
      await tx
        .update(downloadLinks)
        .set({ issuedAt: now, expiresAt: new Date(now.getTime() + limits.linkDays * dayMs), maxDownloads: limits.linkMaxDownloads, downloadCount: 0 })
        .where(eq(downloadLinks.id, link.id));
    }
    const detail = { links: links.length, days: limits.linkDays, downloads: limits.linkMaxDownloads };
    await recordEvent(tx, order.id, "download_links_reissued", detail);
    await recordAudit(tx, operator, "download_links_reissued", { orderId: order.id, detail });
    await enqueueMail(tx, { kind: downloadLinksMailKind, dedupeKey, recipient: order.email, locale: order.locale, orderId: order.id, payload: { lineIds: links.map(({ line }) => line.id) } });
    return { kind: "sent", links: links.length };
  });
}
