import { renderToStaticMarkup } from "react-dom/server";
import contact from "../../content/contact.json";
import site from "../../content/site.json";
import type { Database } from "../db/database.server";
import { lineNameIn } from "../catalog/catalog.server";
import { formatDate, formatDateTime } from "../market/date-time";
import { marketForCountryCode, markets, type Market } from "../market/markets";
import { formatMoney, formatRate } from "../market/money";
import { linesOf, orderById } from "../orders/order-records.server";
import { redemptionOf } from "../orders/code-redemptions.server";
import { commerceTextsFor } from "../orders/commerce-texts.server";
import { returnAddressFor } from "../orders/returns.server";
import { carrierById, trackingLink } from "../parcels/carriers.server";
import { correctionMailKind, shipmentById, shipmentMailKind, shipmentsOf } from "../parcels/shipments.server";
import { routePath } from "../funnel/paths";
import { downloadLinksMailKind, downloadUrl, issueDownloadLinks, linksOfOrder, type LineLink, type LinkLimits } from "../downloads/links.server";
import { invitationsByIds, invitationToken, productsStillHeld, reviewLink } from "../reviews/invitations.server";
import { mailText, type MailContent, type MailRow } from "../mail/mail-content";
import { formatMessage, mailTextsFor, type MailTexts } from "../mail/mail-texts.server";
import { MailView } from "../mail/mail-view";
import type { OutboxRow } from "../mail/outbox.server";
import type { OutgoingMail } from "../mail/transport.server";

interface ComposeContext {
  db: Database;
  from: string;
  publicUrl: string;
  /** Signs the links that review invitations and downloads carry. */
  signingKey: string;
  /** The limits of download links issued by the confirmation (30 days and 10 downloads when not given: decision 27). */
  downloads?: LinkLimits;
}

const defaultLinkLimits: LinkLimits = { linkDays: 30, linkMaxDownloads: 10 };

const brand = site.brand;

function marketOf(code: unknown, locale: string): Market {
  return (typeof code === "string" && marketForCountryCode(code)) || markets.find((market) => market.locale === locale) || (markets[0] as Market);
}

function common(locale: string, market: Market, name: string | null) {
  const texts = mailTextsFor(locale);
  const format = (message: string, values: Record<string, string | number> = {}) => formatMessage(message, market.languageTag, { brand, ...values });
  return {
    texts,
    format,
    greeting: name ? format(texts.common.greeting, { name }) : texts.common.greetingAnonymous,
    signature: format(texts.common.signature),
    contact: format(texts.common.contact, { email: contact.email }),
  };
}

const withdrawLink = (publicUrl: string, market: Market) => `${publicUrl}${routePath("withdraw-2", market.routeValue)}`;

async function orderConfirmation(row: OutboxRow, context: ComposeContext): Promise<MailContent> {
  const order = row.orderId ? await orderById(context.db, row.orderId) : undefined;
  if (!order) throw new Error(`No order for e-mail #${row.id}`);
  const lines = await linesOf(context.db, order.id);
  const redemption = await redemptionOf(context.db, order.id);
  const market = marketOf(order.market, order.locale);
  const money = (minor: number) => formatMoney(minor, { languageTag: market.languageTag, currency: order.currency as Market["currency"] });
  const { texts, format, greeting, signature, contact: contactLine } = common(order.locale, market, order.givenName);
  const t = texts.orderConfirmation;
  const downloads = await issueDownloadLinks(context.db, order, context.downloads ?? defaultLinkLimits);
  const lineRows: MailRow[] = lines.map((line) => ({
    label: `${lineNameIn(order.locale, line)} – ${line.kind === "digital" ? t.digitalItem : format(t.quantity, { units: line.units })}`,
    // With a code, a line shows its price before the code, as the checkout did; the code's row takes it off once.
    value: money(line.grossMinor + line.discountMinor),
    notes: [
      format(t.vatRate, { rate: formatRate(line.vatRateBp, market.languageTag) }),
      ...(line.digitalConsentAt ? [format(t.digitalConsent, { date: formatDateTime(line.digitalConsentAt, market) })] : []),
    ],
  }));
  return {
    lang: market.languageTag,
    subject: format(t.subject, { number: order.number }),
    preheader: t.preheader,
    notice: order.test ? texts.common.testNotice : undefined,
    greeting,
    paragraphs: [t.intro],
    sections: [
      {
        rows: [
          { label: t.numberLabel, value: order.number, strong: true },
          { label: t.dateLabel, value: formatDate(order.paidAt ?? order.createdAt, market) },
        ],
      },
      {
        title: t.linesTitle,
        rows: [
          ...lineRows,
          ...(redemption && redemption.status !== "released" ? [{ label: commerceTextsFor(order.locale).checkout.code.line.replace("{code}", redemption.code), value: money(-redemption.discountMinor) }] : []),
          { label: t.delivery, value: order.deliveryMinor === 0 ? t.free : money(order.deliveryMinor) },
          { label: t.vatTotal, value: money(order.vatMinor) },
          {
            label: t.total,
            value: money(order.totalMinor),
            strong: true,
          },
        ],
      },
      {
        title: t.addressTitle,
        paragraphs: [
          `${order.givenName} ${order.familyName}`,
          order.addressLine1,
          ...(order.addressLine2 ? [order.addressLine2] : []),
          `${order.postalCode} ${order.city}`,
          new Intl.DisplayNames([market.languageTag], { type: "region" }).of(order.country) ?? order.country,
        ],
      },
      ...downloadSections(downloads, context, market, format, texts),
      { paragraphs: [t.nextSteps] },
      { title: t.withdrawalTitle, paragraphs: [t.withdrawalText], link: { href: withdrawLink(context.publicUrl, market), label: t.withdrawalLink } },
    ],
    signature,
    contact: contactLine,
  };
}

/** One section per download link the buyer can use, then when and how often the links work. */
function downloadSections(links: readonly LineLink[], context: ComposeContext, market: Market, format: (message: string, values?: Record<string, string | number>) => string, texts: MailTexts): MailContent["sections"] {
  const usable = links.filter((entry) => entry.state === "ok");
  const first = usable[0];
  if (!first) return [];
  const t = texts.orderConfirmation;
  const expiresAt = usable.reduce((earliest, { link }) => (link.expiresAt < earliest ? link.expiresAt : earliest), first.link.expiresAt);
  return [
    ...usable.map(({ line, link }, index) => ({
      ...(index === 0 ? { title: t.downloadsTitle } : {}),
      link: { href: downloadUrl(context.publicUrl, context.signingKey, link.id), label: format(t.downloadLink, { product: lineNameIn(market.locale, line) }) },
    })),
    { paragraphs: [format(t.downloadNote, { date: formatDate(expiresAt, market), downloads: first.link.maxDownloads })] },
  ];
}

/** The back office sent the download links again: the lines it names, with their fresh limits. */
async function downloadLinksMail(row: OutboxRow, context: ComposeContext): Promise<MailContent | null> {
  const order = row.orderId ? await orderById(context.db, row.orderId) : undefined;
  if (!order || order.erasedAt) return null;
  const lineIds = Array.isArray(row.payload.lineIds) ? row.payload.lineIds : [];
  const links = (await linksOfOrder(context.db, order.id)).filter(({ line }) => lineIds.includes(line.id));
  const market = marketOf(order.market, order.locale);
  const { texts, format, greeting, signature, contact: contactLine } = common(order.locale, market, order.givenName);
  const sections = downloadSections(links, context, market, format, texts);
  if (sections.length === 0) return null;
  const t = texts.downloadLinks;
  return {
    lang: market.languageTag,
    subject: format(t.subject, { number: order.number }),
    preheader: t.preheader,
    notice: order.test ? texts.common.testNotice : undefined,
    greeting,
    paragraphs: [format(t.intro, { number: order.number })],
    sections,
    signature,
    contact: contactLine,
  };
}

/**
 * A refund that succeeded: how much, for which lines (the rest of a whole-order refund is its
 * delivery), whether the order is now refunded in full, and when the money typically arrives.
 */
async function refund(row: OutboxRow, context: ComposeContext): Promise<MailContent> {
  const order = row.orderId ? await orderById(context.db, row.orderId) : undefined;
  if (!order) throw new Error(`No order for e-mail #${row.id}`);
  if (order.erasedAt) throw new Error(`The order of e-mail #${row.id} was erased`);
  const lineIds = Array.isArray(row.payload.lineIds) ? row.payload.lineIds : [];
  const lines = (await linesOf(context.db, order.id)).filter((line) => lineIds.includes(line.id));
  const amountMinor = Number(row.payload.amountMinor);
  if (!Number.isInteger(amountMinor)) throw new Error(`No refunded amount in e-mail #${row.id}`);
  const market = marketOf(order.market, order.locale);
  const money = (minor: number) => formatMoney(minor, { languageTag: market.languageTag, currency: order.currency as Market["currency"] });
  const { texts, format, greeting, signature, contact: contactLine } = common(order.locale, market, order.givenName);
  const t = texts.refund;
  const lineTexts = texts.orderConfirmation;
  const amount = money(amountMinor);
  const deliveryMinor = amountMinor - lines.reduce((sum, line) => sum + line.grossMinor, 0);
  return {
    lang: market.languageTag,
    subject: format(t.subject, { number: order.number }),
    preheader: format(t.preheader, { amount }),
    notice: order.test ? texts.common.testNotice : undefined,
    greeting,
    paragraphs: [format(t.intro, { amount, number: order.number }), row.payload.fullyRefunded === true ? t.full : t.partial],
    sections: [
      {
        rows: [
          { label: lineTexts.numberLabel, value: order.number, strong: true },
          { label: t.dateLabel, value: formatDate(row.createdAt, market) },
        ],
      },
      {
        title: t.linesTitle,
        rows: [
          ...lines.map((line) => ({
            label: `${lineNameIn(order.locale, line)} – ${line.kind === "digital" ? lineTexts.digitalItem : format(lineTexts.quantity, { units: line.units })}`,
            value: money(line.grossMinor),
          })),
          ...(deliveryMinor > 0 && deliveryMinor === order.deliveryMinor ? [{ label: lineTexts.delivery, value: money(deliveryMinor) }] : []),
          { label: t.total, value: amount, strong: true },
        ],
      },
      { paragraphs: [t.timing] },
    ],
    signature,
    contact: contactLine,
  };
}

/** Orders whose buyer still has the goods: a refunded, withdrawn or cancelled order invites no review. */
const reviewableStatuses: readonly string[] = ["paid", "fulfilled", "partially_refunded"];

/**
 * The invitation to review each product of an order, one personal link per product. Links already
 * used or expired by the time it is sent, and products refunded meanwhile, are left out; with none
 * left, nothing is sent.
 */
async function reviewInvitation(row: OutboxRow, context: ComposeContext): Promise<MailContent | null> {
  const ids = Array.isArray(row.payload.invitationIds) ? row.payload.invitationIds.filter((id): id is string => typeof id === "string") : [];
  const now = new Date();
  const invited = await invitationsByIds(context.db, ids);
  const order = invited[0]?.order;
  if (!order || order.erasedAt || !reviewableStatuses.includes(order.status)) return null;
  const held = await productsStillHeld(context.db, order.id);
  const open = invited.filter(({ invitation }) => !invitation.usedAt && invitation.expiresAt > now && held.has(invitation.productId));
  if (open.length === 0) return null;
  const market = marketOf(order.market, order.locale);
  const { texts, format, greeting, signature, contact: contactLine } = common(order.locale, market, order.givenName);
  const t = texts.reviewInvitation;
  const expiresAt = open.reduce((earliest, { invitation }) => (invitation.expiresAt < earliest ? invitation.expiresAt : earliest), open[0]?.invitation.expiresAt ?? now);
  return {
    lang: market.languageTag,
    subject: format(t.subject),
    preheader: t.preheader,
    notice: order.test ? texts.common.testNotice : undefined,
    greeting,
    paragraphs: [format(t.intro, { number: order.number })],
    sections: [
      ...open.map(({ invitation, line }) => ({
        title: lineNameIn(order.locale, line),
        link: { href: reviewLink(context.publicUrl, order, invitationToken(context.signingKey, invitation.id)), label: format(t.productLink, { product: lineNameIn(order.locale, line) }) },
      })),
      { paragraphs: [format(t.linkNote, { date: formatDate(expiresAt, market) }), t.noObligation] },
    ],
    signature,
    contact: contactLine,
  };
}

/**
 * A parcel's carrier, number and tracking link; for a correction, also the number it replaces. A
 * parcel corrected before its e-mail went out, or an order erased meanwhile, needs no e-mail.
 */
async function shipment(row: OutboxRow, context: ComposeContext): Promise<MailContent | null> {
  const parcel = await shipmentById(context.db, Number(row.payload.shipmentId));
  const order = parcel ? await orderById(context.db, parcel.orderId) : undefined;
  if (!parcel || !order || order.erasedAt || parcel.supersededBy !== null) return null;
  const carrier = carrierById(parcel.carrier);
  if (!carrier) throw new Error(`E-mail #${row.id} names a carrier the store no longer has`);
  const market = marketOf(order.market, order.locale);
  const { texts, format, greeting, signature, contact: contactLine } = common(order.locale, market, order.givenName);
  const t = texts.shipment;
  const values = { number: order.number, carrier: carrier.name, trackingNumber: parcel.trackingNumber };
  const parcels = await shipmentsOf(context.db, order.id);
  const replaced = row.kind === correctionMailKind ? parcels.find((candidate) => candidate.id === Number(row.payload.correctsId)) : undefined;
  // Another parcel: one sent before this one that is not the one this corrects.
  const another = !replaced && parcels.some((candidate) => candidate.id < parcel.id && candidate.supersededBy === null);
  const replacedCarrier = replaced ? carrierById(replaced.carrier) : undefined;
  return {
    lang: market.languageTag,
    subject: format(replaced ? t.correctionSubject : another ? t.subjectAnother : t.subject, values),
    preheader: format(replaced ? t.correctionPreheader : t.preheader, values),
    notice: order.test ? texts.common.testNotice : undefined,
    greeting,
    paragraphs: [format(replaced ? t.correctionIntro : another ? t.introAnother : t.intro, values)],
    sections: [
      {
        rows: [
          { label: texts.orderConfirmation.numberLabel, value: order.number },
          { label: t.carrierLabel, value: carrier.name },
          { label: t.trackingNumberLabel, value: parcel.trackingNumber, strong: true },
          ...(replaced ? [{ label: t.replacedLabel, value: `${replacedCarrier?.name ?? replaced.carrier} ${replaced.trackingNumber}` }] : []),
        ],
      },
      { link: { href: trackingLink(carrier, parcel.trackingNumber), label: format(t.trackLink, values) } },
      { paragraphs: [format(t.trackingNote, values)] },
    ],
    signature,
    contact: contactLine,
  };
}

function payloadText(row: OutboxRow, key: string): string {
  const value = row.payload[key];
  return typeof value === "string" ? value : "";
}

function withdrawal(row: OutboxRow, context: ComposeContext): MailContent {
  const market = marketOf(row.payload.market, row.locale);
  const { texts, format, greeting, signature, contact: contactLine } = common(row.locale, market, payloadText(row, "name"));
  const t = texts.withdrawal;
  const reference = payloadText(row, "reference");
  return {
    lang: market.languageTag,
    subject: format(t.subject, { reference }),
    preheader: t.intro,
    greeting,
    paragraphs: [t.intro],
    sections: [
      {
        // A declaration that matched no order is told without the name and number typed in.
        rows: [
          { label: t.reference, value: reference, strong: true },
          { label: t.receivedAt, value: formatDateTime(new Date(payloadText(row, "receivedAt")), market) },
          { label: t.name, value: payloadText(row, "name") },
          { label: t.orderNumber, value: payloadText(row, "orderNumber") },
          { label: t.email, value: row.recipient },
        ].filter((line) => line.value !== ""),
      },
      { paragraphs: [t.statement, t.nextSteps] },
      { title: t.returnHeading, address: returnAddressFor(market), paragraphs: [t.returnText] },
    ],
    signature,
    contact: `${contactLine} ${context.publicUrl}`,
  };
}

/** The acknowledgement of a form the visitor sent: its intro, then what they sent. */
function formAcknowledgement(row: OutboxRow, pick: (texts: MailTexts) => { subject: string; intro: string; sections: MailContent["sections"] }): MailContent {
  const market = marketOf(row.payload.market, row.locale);
  const { texts, greeting, signature, contact } = common(row.locale, market, null);
  const { subject, intro, sections } = pick(texts);
  return { lang: market.languageTag, subject, preheader: intro, greeting, paragraphs: [intro], sections, signature, contact };
}

function refundRequest(row: OutboxRow): MailContent {
  return formAcknowledgement(row, ({ refundRequest: t }) => {
    const reason = payloadText(row, "reason") as keyof typeof t.reasons;
    const message = payloadText(row, "message");
    return {
      subject: t.subject,
      intro: t.intro,
      sections: [
        {
          // A request that matched no order carries only a number in the store's own form, and a reason of the list.
          rows: [
            { label: t.orderNumber, value: payloadText(row, "orderNumber") },
            { label: t.reason, value: t.reasons[reason] ?? t.reasons.other },
          ].filter((line) => line.value !== ""),
        },
        ...(message ? [{ title: t.message, paragraphs: [message] }] : []),
      ],
    };
  });
}

/** A thank-you with the rating only: the comment is never sent on to an address nobody verified. */
function feedbackAcknowledgement(row: OutboxRow): MailContent {
  return formAcknowledgement(row, ({ feedback: t }) => ({
    subject: t.subject,
    intro: t.intro,
    sections: [{ rows: [{ label: t.rating, value: `${payloadText(row, "rating")} / 5` }] }],
  }));
}

/** The message for an outbox row; null when there is nothing left to say (the row is then dropped). */
export async function composeMail(row: OutboxRow, context: ComposeContext): Promise<OutgoingMail | null> {
  if (row.kind === "review-invitation" || row.kind === shipmentMailKind || row.kind === correctionMailKind || row.kind === downloadLinksMailKind) {
    const content =
      row.kind === "review-invitation" ? await reviewInvitation(row, context) : row.kind === downloadLinksMailKind ? await downloadLinksMail(row, context) : await shipment(row, context);
    return content && outgoing(row, context, content);
  }
  const content =
    row.kind === "order-confirmation"
      ? await orderConfirmation(row, context)
      : row.kind === "withdrawal"
        ? withdrawal(row, context)
        : row.kind === "refund"
          ? await refund(row, context)
          : row.kind === "refund-request"
            ? refundRequest(row)
            : row.kind === "feedback"
              ? feedbackAcknowledgement(row)
              : null;
  if (!content) throw new Error(`Unknown e-mail kind ${row.kind}`);
  return outgoing(row, context, content);
}

function outgoing(row: OutboxRow, context: ComposeContext, content: MailContent): OutgoingMail {
  const domain = /@([^>\s]+)>?$/.exec(context.from)?.[1] ?? "localhost";
  return {
    to: row.recipient,
    from: context.from,
    subject: content.subject,
    html: `<!DOCTYPE html>${renderToStaticMarkup(<MailView content={content} />)}`,
    text: mailText(content),
    messageId: `<${row.kind}.${row.id}@${domain}>`,
  };
}
