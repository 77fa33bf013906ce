import { and, desc, eq } from "drizzle-orm";
import { data, redirect, type RouterContextProvider } from "react-router";
import { pricedBundle } from "../catalog/catalog.server";
import { commerceTextsFor, type CommerceTexts } from "../orders/commerce-texts.server";
import { payments } from "../orders/schema";
import { readFormBody } from "../forms/form-body.server";
import { funnelTextsFor, productTextFor, upsells } from "../funnel/content.server";
import { routePath } from "../funnel/paths";
import { isPrefetchRequest } from "../funnel/page-views.server";
import { routeEntryForPath } from "../funnel/route-for-path";
import type { PlainRouteName, TwinRouteName } from "../funnel/route-table";
import type { Market } from "../market/markets";
import { storefrontStateContext } from "../market/request-context";
import { recordEvent, type Order, type Payment } from "../orders/order-records.server";
import { cookieOrder } from "./order-page.server";
import { providerReturnPath, runPaymentAttempt } from "../orders/payment-attempts.server";
import { beginUpsell, declineUpsell, latestUpsellPayment, upsellState, type UpsellState } from "../orders/upsell-service.server";
import { finishesInBrowser, type ProviderNextAction } from "../payments/browser-next-action";
import { checkoutPartOfProvider } from "../payments/checkout-parts";
import type { DeclineCode } from "../payments/provider";
import { store } from "../store/store.server";

interface RouteArgs {
  request: Request;
  params: { locale?: string };
  context: Readonly<RouterContextProvider>;
}

/** The upsell a page offers: its step (the page's plain path) and where the funnel goes next. */
function upsellOfPath(pathname: string) {
  const plain = routeEntryForPath(pathname)?.plainPath.slice(1) ?? "upsell";
  const step = upsells.upsells[plain] ? plain : "upsell";
  const upsell = upsells.upsells[step];
  if (!upsell) throw new Error("No upsell configured");
  return { step, bundleId: upsell.bundle, next: upsell.next as PlainRouteName };
}

/** The next page's route, in the same form as this page: the twin with the locale, or the plain route. */
function nextRoute(pathname: string): { name: PlainRouteName | TwinRouteName; locale: string | undefined } {
  const { next } = upsellOfPath(pathname);
  const locale = routeEntryForPath(pathname)?.param === "locale" ? pathname.split("/").pop()?.toLowerCase() : undefined;
  return locale ? { name: `${next}-2` as TwinRouteName, locale } : { name: next, locale: undefined };
}

/** The next page's path, with the funnel's query. */
export function nextPagePath(pathname: string, search: string): string {
  const { name, locale } = nextRoute(pathname);
  const path = locale ? routePath(name as TwinRouteName, locale) : routePath(name as PlainRouteName);
  return `${path}${search}`;
}

/** The checkout's paid payment: its provider and method pay for the upsells too. */
async function checkoutPayment(orderId: string): Promise<Payment | undefined> {
  const [payment] = await store()
    .db.select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.purpose, "checkout"), eq(payments.status, "succeeded")))
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return payment;
}

function failureMessage(lang: string, payment: Payment | undefined): string | null {
  if (!payment || (payment.status !== "declined" && payment.status !== "cancelled")) return null;
  const texts = commerceTextsFor(lang);
  return `${texts.checkout.declines[(payment.failureCode ?? "card_declined") as DeclineCode]} ${texts.upsell.orderUnchanged}`;
}

/**
 * What this order may do here. A page of another market than the order's shows another price and
 * VAT, so it offers nothing ("can no longer be added") and its form adds nothing: the line would
 * have to be charged at a price the page did not show.
 */
async function stateFor(order: Order, market: Market, step: string): Promise<UpsellState> {
  if (order.market !== market.country) return "closed";
  return upsellState(store().db, order, step);
}

/** What a buyer with a paid order sees on an upsell page. */
export interface UpsellBuyer {
  state: UpsellState;
  test: boolean;
  /** Accepting opens a short payment on the provider's page instead of charging silently. */
  onSession: boolean;
  /** Why the last attempt to pay for this upsell failed. */
  message: string | null;
  texts: CommerceTexts["upsell"] & { digitalConsent: string };
}

export async function loadUpsell({ request, context }: RouteArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  const { step, bundleId, next } = upsellOfPath(new URL(request.url).pathname);
  const line = pricedBundle(bundleId, market.currency, new Date(), lang);
  const { kicker, kickerLast, ...upsellTexts } = funnelTextsFor(lang).upsell;
  // "One more thing before you go" opens the first upsell; one reached from another upsell that
  // ends the funnel says it is the last suggestion instead of repeating it.
  const followsAnother = Object.values(upsells.upsells).some((upsell) => upsell.next === step);
  const page = {
    line,
    next,
    product: productTextFor(lang, line.productId),
    texts: { ...upsellTexts, kicker: followsAnother && next === "thankyou" ? kickerLast : kicker },
    digital: line.kind === "digital",
  };
  const order = await cookieOrder(request);
  if (!order || order.paidAt === null) return { ...page, buyer: null as UpsellBuyer | null };
  const state = await stateFor(order, market, step);
  // The funnel report's "offers shown": the buyer's own order, the offer still open, and a page
  // actually opened (a prefetch is not). A reload records it again; the report counts each
  // order once per step.
  if (state === "open" && !isPrefetchRequest(request.headers)) await recordEvent(store().db, order.id, "upsell_shown", { step });
  const paid = await checkoutPayment(order.id);
  const commerce = commerceTextsFor(lang);
  const buyer: UpsellBuyer = {
    state,
    test: order.test,
    onSession: !paid?.reusableMethodRef,
    message: state === "open" ? failureMessage(lang, await latestUpsellPayment(store().db, order.id, step)) : null,
    texts: { ...commerce.upsell, digitalConsent: commerce.checkout.digitalConsent },
  };
  return data({ ...page, buyer }, { headers: { "Cache-Control": "private, no-store" } });
}

export interface UpsellActionData {
  message: string;
  consentMissing?: boolean;
  /** The provider left the card's 3-D Secure to its script: the page loads it to finish the challenge, then returns through the return path. */
  nextAction?: ProviderNextAction;
}

/**
 * Accept or decline. Accepting charges the checkout's method again (or opens a short payment on
 * the provider's page when it cannot be charged silently) and adds one line to the same order;
 * a failure leaves the order as it was. The server decides whether this order may still take
 * this step's upsell; a replay finds the first acceptance instead of charging again.
 */
export async function answerUpsell({ request, context }: RouteArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  const { db, providers } = store();
  const texts = commerceTextsFor(lang);
  const url = new URL(request.url);
  const next = nextPagePath(url.pathname, url.search);
  const form = await readFormBody(request);
  const order = await cookieOrder(request);
  const { step, bundleId } = upsellOfPath(url.pathname);
  const closed = () => data<UpsellActionData>({ message: texts.upsell.closed }, { status: 409 });
  if (!order || order.paidAt === null) return closed();

  if (form.get("intent") === "decline") {
    await declineUpsell(db, order.id, step);
    throw redirect(next, { status: 303 });
  }
  if (form.get("intent") !== "accept") return data<UpsellActionData>({ message: texts.upsell.closed }, { status: 400 });
  const state = await stateFor(order, market, step);
  if (state === "accepted") throw redirect(next, { status: 303 });
  if (state === "closed") return closed();

  const digitalConsent = form.get("digitalConsent") === "yes";
  if (pricedBundle(bundleId, market.currency, new Date(), lang).kind === "digital" && !digitalConsent) {
    return data<UpsellActionData>({ message: texts.checkout.errors.digitalConsent, consentMissing: true }, { status: 400 });
  }
  const paid = await checkoutPayment(order.id);
  const provider = paid && providers.get(paid.provider);
  if (!paid || !provider) return closed();
  const begun = await beginUpsell(db, order.id, {
    line: { step, bundleId },
    digitalConsent,
    provider: paid.provider,
    method: paid.method,
    returnPath: `${url.pathname}${url.search}`,
  });
  if (begun.kind === "accepted") throw redirect(next, { status: 303 });
  if (begun.kind === "closed") return closed();

  const returnUrl = providerReturnPath(provider, begun.payment.id, nextRoute(url.pathname).name, store().signingKey);
  const payment = { orderNumber: order.number, amountMinor: begun.payment.amountMinor, currency: begun.payment.currency, returnUrl };
  const attempt = await runPaymentAttempt(
    db,
    (id) => providers.get(id),
    begun,
    paid.reusableMethodRef
      ? { kind: "saved", input: { ...payment, reusableMethodRef: paid.reusableMethodRef } }
      : {
          kind: "start",
          input: { ...payment, customer: { email: order.email, name: `${order.givenName} ${order.familyName}`, country: order.country }, method: paid.method, details: {}, saveMethod: false },
        },
  );
  if (attempt.kind === "unavailable") {
    return data<UpsellActionData>({ message: `${texts.checkout.declines.provider_unavailable} ${texts.upsell.orderUnchanged}` }, { status: 503 });
  }
  const { outcome } = attempt;
  if (attempt.payment.status === "succeeded" || outcome.status === "processing") throw redirect(next, { status: 303 });
  if (outcome.status === "requires_action") {
    if (outcome.actionUrl !== undefined) throw redirect(outcome.actionUrl, { status: 303 });
    // The provider's script finishes it in this page, with what its part of the page may know of its settings.
    const settings = checkoutPartOfProvider(paid.provider)?.server?.pageSettings?.(store().settings.providers[paid.provider]) ?? null;
    if (settings !== null && finishesInBrowser(paid.provider)) {
      return data<UpsellActionData>({ message: "", nextAction: { clientSecret: outcome.clientSecret, returnPath: returnUrl, provider: paid.provider, settings } });
    }
  }
  return data<UpsellActionData>({ message: failureMessage(lang, attempt.payment) ?? texts.upsell.orderUnchanged }, { status: 402 });
}
