import { lineNameIn } from "../catalog/catalog.server";
import { formatMessage } from "../mail/mail-texts.server";
import { formatDate } from "../market/date-time";
import { marketForCountryCode, markets, type Market } from "../market/markets";
import type { Order } from "../orders/order-records.server";
import { store } from "../store/store.server";
import { downloadUrl, issueDownloadLinks } from "../downloads/links.server";

/**
 * The thank-you page's download links for the browser's own order (`cookieOrder`): issued when first shown, as
 * plain links (the page gains no script for them). Only links that give the file are shown.
 */
export async function ownDownloads(order: Order, texts: { downloadLink: string; downloadNote: string }): Promise<{ links: { href: string; label: string }[]; note: string } | null> {
  const { db, settings, signingKey } = store();
  const usable = (await issueDownloadLinks(db, order, settings.downloads)).filter((entry) => entry.state === "ok");
  const first = usable[0];
  if (!first) return null;
  const market: Market = marketForCountryCode(order.market) ?? markets.find((candidate) => candidate.locale === order.locale) ?? (markets[0] as Market);
  const expiresAt = usable.reduce((earliest, { link }) => (link.expiresAt < earliest ? link.expiresAt : earliest), first.link.expiresAt);
  return {
    // Relative: the page is on the store's own origin, whatever PUBLIC_URL says.
    links: usable.map(({ line, link }) => ({ href: new URL(downloadUrl(settings.publicUrl, signingKey, link.id)).pathname, label: formatMessage(texts.downloadLink, market.languageTag, { product: lineNameIn(order.locale, line) }) })),
    note: formatMessage(texts.downloadNote, market.languageTag, { date: formatDate(expiresAt, market), downloads: first.link.maxDownloads }),
  };
}
