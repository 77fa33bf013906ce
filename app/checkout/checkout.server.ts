import { data, redirect, type RouterContextProvider } from "react-router";
import { routePath } from "../funnel/paths";
import { isUuid } from "../db/uuid";
import { storefrontStateContext } from "../market/request-context";
import type { Market } from "../market/markets";
import { deliveryCountry, isReusableMethod, paymentMethodsFor, providerOfMethod, type CheckoutMethodId } from "../orders/commerce-content.server";
import { orderCookieHeader, orderIdFromRequest } from "../orders/order-access.server";
import { latestCheckoutPayment, linesOf, orderById, paymentById, type Order } from "../orders/order-records.server";
import { bumpOf } from "../catalog/catalog.server";
import { cookieOrder } from "../upsells/order-page.server";
import { applyPaymentOutcome, CodeRefused, formTokenOf, placeOrder, type Contact } from "../orders/order-service.server";
import { isPaymentReturnToken, providerReturnPath, refreshAttempt, returnedPaymentState, runPaymentAttempt, supersedeLeftOrder } from "../orders/payment-attempts.server";
import { readFormBody } from "../forms/form-body.server";
import { discountedQuote, quoteCheckout, type Quote } from "../orders/quote.server";
import { redemptionOf } from "../orders/code-redemptions.server";
import { quoteWithCode } from "./checkout-code.server";
import { paymentSetupOf } from "../payments/payment-setup";
import type { DeclineCode } from "../payments/provider";
import { checkoutPartOf, checkoutParts } from "../payments/checkout-parts";
import type { BrowserNextAction } from "../payments/provider";
import { store } from "../store/store.server";
import { nextPagePath } from "../upsells/upsell-page.server";
import { browserCookie, browserIdOf, checkCheckoutToken, newBrowserId, newCheckoutToken } from "./checkout-token.server";
import { reachedOverHttps } from "../platform/https-request";
import { checkoutFields, contactFields, keptValues, validateCheckout, type CheckoutErrors } from "./checkout-form";
import { normalizePostalCode } from "./postal-codes";
import { commerceTextsFor, type CommerceTexts } from "../orders/commerce-texts.server";
import { armOfQuery } from "../experiments/exposure-token.server";
import { touchOfCheckout } from "../attribution/touches.server";
import { conversionRequestOf, recordConversionConsent } from "../conversions/record.server";

interface RouteArgs {
  request: Request;
  params: { locale?: string };
  context: Readonly<RouterContextProvider>;
}

export interface CheckoutActionData {
  errors: CheckoutErrors;
  values: Record<string, string>;
  token: string;
  /** A message for the whole form: a decline, an expired page. */
  message: string | null;
  /** A 3-D Secure challenge for the provider's script to finish in this page, then the return path that asks the server how it ended. */
  nextAction?: BrowserNextAction;
  /** What the page shows now: with the applied code's discount, or without one. */
  quote: ReturnType<typeof orderView> | null;
  /** The same with the offer's add-on ticked, for the summary to follow the box; null without a bump. */
  bumpQuote: ReturnType<typeof orderView> | null;
  /** Why the code the buyer typed was refused. */
  codeError?: string;
}


/** A paid order's own browser, sending its form again this soon, is told the order is placed. */
const resubmitGraceMs = 10 * 60 * 1000;

/** The funnel query to carry on (src, utm), without what only the checkout needs. */
function funnelQuery(url: URL): string {
  const query = new URLSearchParams(url.search);
  query.delete("bundle");
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** The first upsell, in the same form as the checkout's URL (with or without the locale). */
function nextStepPath(checkoutUrl: URL, locale: string | undefined): string {
  const path = locale ? routePath("upsell-2", locale.toLowerCase()) : routePath("upsell");
  return `${path}${funnelQuery(checkoutUrl)}`;
}

function orderView(quote: Quote) {
  return { lines: quote.lines, totals: quote.totals, currency: quote.currency, discount: quote.discount ?? null };
}

/** The offer's add-on as the box beside it shows it: never ticked by the store, its price the catalog's. */
function bumpOffer(quote: Quote, texts: CommerceTexts["checkout"]["bump"]) {
  const line = quote.lines[1];
  if (!line) return null;
  const pitches: Readonly<Record<string, string>> = texts.pitch;
  return { bundleId: line.bundleId, productName: line.productName, kind: line.kind, priceMinor: line.grossMinor + (line.discountMinor ?? 0), pitch: pitches[line.bundleId] ?? "" };
}

/** The checkout's quote without and with the offer's add-on (null when the bundle has none). */
function checkoutQuotes(market: Market, bundleId: string, today: Date): { plain: Quote; bumped: Quote | null } | null {
  const plain = quoteCheckout(market, bundleId, today);
  if (!plain) return null;
  return { plain, bumped: bumpOf(bundleId) ? quoteCheckout(market, bundleId, today, { bump: true }) : null };
}

function contactValues(order: Order): Record<string, string> {
  return Object.fromEntries(contactFields.map((field) => [field, order[field]]));
}

export async function loadCheckout({ request, context }: RouteArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  const { signingKey, settings, providers } = store();
  const texts = commerceTextsFor(lang);
  const bundleId = new URL(request.url).searchParams.get("bundle") ?? "";
  const quotes = checkoutQuotes(market, bundleId, new Date());
  const base = {
    texts,
    testMode: settings.storeMode === "test",
    country: deliveryCountry(market),
    methods: paymentMethodsFor(market, paymentSetupOf(providers.keys())),
    // What each running provider's part of the page needs, by provider id: never a secret.
    paymentPages: paymentPageSettings(settings.providers, providers),
  };
  // Nothing chosen yet is an ordinary visit; an unknown or retired bundle is a dead link.
  if (!bundleId) return { ...base, unavailable: true as const, notice: texts.checkout.nothingChosen };
  if (!quotes) return data({ ...base, unavailable: true as const, notice: texts.checkout.unavailable }, { status: 404 });
  let { plain: quote, bumped } = quotes;

  // Back from a declined or cancelled payment: the same order, its details, and why it failed.
  // The same order again: back from a declined or cancelled payment (its details, and why it
  // failed), or back from the upsells with the back button (sending the form again pays nothing).
  const order = await cookieOrder(request);
  const sameOrder = order && order.market === market.country && tokenBundle(order.checkoutToken) === bundleId;
  const retry = sameOrder && (order.status === "payment_failed" || order.status === "pending_payment");
  const justPaid = sameOrder && order.paidAt !== null && Date.now() - order.paidAt.getTime() < resubmitGraceMs;
  const lastPayment = retry ? await latestCheckoutPayment(store().db, order.id) : undefined;
  const failed = lastPayment && (lastPayment.status === "declined" || lastPayment.status === "cancelled");
  // The same order keeps the code its lines were discounted by.
  const redemption = retry || justPaid ? await redemptionOf(store().db, order.id) : undefined;
  // Its add-on box comes back as it was sent, since the redemption was spread over the order's lines.
  const bumpWasTicked = (retry || justPaid) && bumped ? (await linesOf(store().db, order.id)).some((line) => line.bundleId === bumped?.lines[1]?.bundleId) : false;
  if (redemption && bumpWasTicked && bumped) bumped = discountedQuote(market, bumped, redemption);
  else if (redemption) quote = discountedQuote(market, quote, redemption);
  // The form's token is made for this browser, named by its cookie (set here when it has none).
  const browser = browserOf(request, settings.publicUrl);
  return data(
    {
      ...base,
      unavailable: false as const,
      bundleId,
      quote: orderView(quote),
      bump: bumped ? { offer: bumpOffer(bumped, texts.checkout.bump), quote: orderView(bumped) } : null,
      token: retry || justPaid ? formTokenOf(order.checkoutToken) : newCheckoutToken(signingKey, bundleId, browser.id),
      values: retry || justPaid ? { ...contactValues(order), method: lastPayment?.method ?? "", appliedCode: redemption?.code ?? "", bump: bumpWasTicked ? "yes" : "" } : {},
      message: justPaid ? texts.checkout.alreadyPlaced : failed ? texts.checkout.declines[(lastPayment.failureCode ?? "card_declined") as DeclineCode] : null,
    },
    { headers: { "Set-Cookie": browser.cookie } },
  );
}

function paymentPageSettings(settings: Readonly<Record<string, unknown>>, running: ReadonlyMap<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(checkoutParts.flatMap(({ provider, server }) => (server?.pageSettings && running.has(provider) ? [[provider, server.pageSettings(settings[provider])]] : [])));
}

/** The browser's id from its cookie, or a new one, and the cookie to (re)set for as long as a token lives. */
function browserOf(request: Request, publicUrl: string): { known: string | null; id: string; cookie: string } {
  const known = browserIdOf(request.headers.get("Cookie"));
  const id = known ?? newBrowserId();
  return { known, id, cookie: browserCookie(id, reachedOverHttps(request, publicUrl)) };
}

function tokenBundle(token: string): string | undefined {
  return token.split(".")[2];
}

function formValues(form: FormData): Record<string, string> {
  return Object.fromEntries(checkoutFields.map((field) => [field, String(form.get(field) ?? "").slice(0, 500)]));
}

function contactOf(values: Record<string, string>, country: string): Contact {
  return {
    email: values.email?.trim() ?? "",
    givenName: values.givenName?.trim() ?? "",
    familyName: values.familyName?.trim() ?? "",
    addressLine1: values.addressLine1?.trim() ?? "",
    addressLine2: values.addressLine2?.trim() ?? "",
    postalCode: normalizePostalCode(country, values.postalCode ?? "") ?? "",
    city: values.city?.trim() ?? "",
    country,
    phone: values.phone?.trim() ?? "",
  };
}

export async function submitCheckout({ request, params, context }: RouteArgs) {
  const { market, lang } = context.get(storefrontStateContext);
  const { db, providers, signingKey, orderCookie, settings } = store();
  const texts = commerceTextsFor(lang).checkout;
  const url = new URL(request.url);
  const form = await readFormBody(request);
  const values = formValues(form);
  const kept = keptValues(values);

  const quotes = checkoutQuotes(market, values.bundle ?? "", new Date());
  // The add-on is in the order only when the buyer ticked its box (the store never ticks it).
  const bumpTicked = values.bump === "yes" && Boolean(quotes?.bumped);
  const undiscounted = (bumpTicked ? quotes?.bumped : quotes?.plain) ?? null;
  // What the page shows when it comes back: the quotes with the code the form carries, once assessed.
  let shown: Quote | null = undiscounted;
  let shownOther: Quote | null = (bumpTicked ? quotes?.plain : quotes?.bumped) ?? null;
  const shownQuotes = () => {
    const [plain, bumped] = bumpTicked ? [shownOther, shown] : [shown, shownOther];
    return { quote: plain ? orderView(plain) : null, bumpQuote: bumped ? orderView(bumped) : null };
  };
  const reply = (status: number, message: string | null, errors: CheckoutErrors = {}, token = values.token ?? "", headers?: HeadersInit) =>
    data<CheckoutActionData>({ errors, values: kept, token, message, ...shownQuotes() }, { status, headers });

  if (!undiscounted) return reply(400, texts.unavailable);
  // Only the browser the form was shown to may send it: a copy posted from another browser (or
  // one without the cookie) is shown the form again, its details kept, with a token of its own.
  const browser = browserOf(request, settings.publicUrl);
  const tokenCheck = checkCheckoutToken(signingKey, values.token ?? "", undiscounted.lines[0]?.bundleId ?? "", browser.known);
  if (tokenCheck !== "valid") return reply(tokenCheck === "expired" ? 400 : 403, texts.expired, {}, newCheckoutToken(signingKey, values.bundle ?? "", browser.id), { "Set-Cookie": browser.cookie });

  // Applying or removing a code answers with the page again, every typed field kept, so that it
  // works without JavaScript too; nothing is placed or paid.
  const intent = form.get("intent");
  if (intent === "apply-code" || intent === "remove-code") {
    const typed = intent === "apply-code" ? (values.code ?? "").trim() : "";
    const coded = typed ? await quoteWithCode(db, market, undiscounted, typed, values.email ?? "", texts.code, new Date()) : null;
    shown = coded?.quote ?? undiscounted;
    // The box can still change: the other quote carries the code too, assessed again when paying.
    if (coded?.refusal === null && shownOther) shownOther = (await quoteWithCode(db, market, shownOther, coded.code, values.email ?? "", texts.code, new Date())).quote;
    const codeValues = { ...kept, code: coded?.refusal ? typed : "", appliedCode: coded?.code ?? "" };
    return data<CheckoutActionData>({ errors: {}, values: codeValues, token: values.token ?? "", message: null, ...shownQuotes(), ...(coded?.refusal ? { codeError: coded.refusal } : {}) }, { status: coded?.refusal ? 400 : 200 });
  }

  // The code the form carries is assessed again for this buyer: one that stopped being valid since
  // it was applied is taken off, and the buyer sees why and the new total before paying anything.
  const codeChanged = (refusal: string) => {
    shown = undiscounted;
    shownOther = (bumpTicked ? quotes?.plain : quotes?.bumped) ?? null;
    kept.appliedCode = "";
    return reply(409, texts.code.changed.replace("{reason}", refusal), {}, newCheckoutToken(signingKey, values.bundle ?? "", browser.id), { "Set-Cookie": browser.cookie });
  };
  if (values.appliedCode) {
    const coded = await quoteWithCode(db, market, undiscounted, values.appliedCode, values.email ?? "", texts.code, new Date());
    if (coded.refusal !== null) return codeChanged(coded.refusal);
    shown = coded.quote;
    if (shownOther) shownOther = (await quoteWithCode(db, market, shownOther, values.appliedCode, values.email ?? "", texts.code, new Date())).quote;
  }
  const quote: Quote = shown ?? undiscounted;

  // The pay button named a total: a buyer is never charged another one, such as the regular price
  // after a reduction ended while the form was open. The page shows the new total to confirm. The
  // form carries the total with the add-on too, so that ticking its box without JavaScript pays
  // the total the page showed for it.
  const quotedTotal = bumpTicked ? values.quotedBumpTotal : values.quotedTotal;
  if (quotedTotal && quotedTotal !== String(quote.totals.totalMinor)) return reply(409, texts.priceChanged);

  const country = deliveryCountry(market);
  const methods = paymentMethodsFor(market, paymentSetupOf(providers.keys()));
  const digital = quote.lines.some((line) => line.kind === "digital");
  const errors = validateCheckout(values, { country, methods, digital, today: new Date() });
  if (Object.keys(errors).length > 0) return reply(400, texts.errorSummary, errors);

  const method = values.method as CheckoutMethodId;
  const payments = providers.get(providerOfMethod(method));
  if (!payments) return reply(400, texts.errorSummary, { method: true });
  const touch = touchOfCheckout(request);
  const placing = placeOrder(
    db,
    {
      checkoutToken: values.token ?? "",
      market: market.country,
      locale: lang,
      currency: quote.currency,
      contact: contactOf(values, country),
      lines: quote.lines,
      totals: quote.totals,
      funnelSrc: url.searchParams.get("src")?.slice(0, 40) ?? null,
      experiment: armOfQuery(signingKey, url.searchParams.get("xp")),
      touch,
      test: settings.storeMode === "test",
      digitalConsent: digital && values.digitalConsent === "yes",
      code: quote.discount ?? null,
    },
    { provider: payments.id, method, returnPath: `${url.pathname}${url.search}` },
  );
  const placed = await placing.catch((error: unknown) => (error instanceof CodeRefused ? error : Promise.reject(error)));
  if (placed instanceof CodeRefused) {
    // Taken by another order in the meantime: the buyer reads why, as on applying it.
    const again = await quoteWithCode(db, market, undiscounted, values.appliedCode ?? "", values.email ?? "", texts.code, new Date());
    return codeChanged(again.refusal ?? texts.code.refusals[placed.refusal]);
  }
  // With the buyer's marketing consent, the order may be reported to the ad platforms once its funnel ends.
  // Meta's click id is the touch's, which a consenting buyer's cookie keeps across visits.
  const conversionRequest = conversionRequestOf(request, {
    fbclid: touch.clickIdKind === "fbclid" ? touch.clickId : null,
    settings: settings.conversions,
  });
  if (conversionRequest) await recordConversionConsent(db, placed.order.id, conversionRequest);
  const cookieHeader = { "Set-Cookie": await orderCookieHeader(orderCookie, placed.order.id, request, settings.publicUrl) };
  const next = nextStepPath(url, params.locale);

  if (placed.kind === "already_paid") {
    // A form token proves nothing about who sends it (it can be replayed from another browser):
    // only a browser that already holds the order is sent on with it.
    const ownOrder = (await orderIdFromRequest(orderCookie, request.headers.get("Cookie"))) === placed.order.id;
    if (ownOrder) throw redirect(next, { status: 303, headers: cookieHeader });
    return reply(409, texts.alreadyPlaced);
  }

  // The order this browser held before, left unpaid at a bank's or wallet's page for this one: its
  // waiting attempt is closed at the provider, so approving it later cannot pay a second order.
  const leftOrder = await orderIdFromRequest(orderCookie, request.headers.get("Cookie"));
  if (leftOrder && leftOrder !== placed.order.id) await supersedeLeftOrder(db, (id) => providers.get(id), leftOrder, placed.order.id);

  const returnPath = providerReturnPath(payments, placed.payment.id, params.locale ? "upsell-2" : "upsell", signingKey);
  const attempt = await runPaymentAttempt(db, (id) => providers.get(id), placed, {
    kind: "start",
    input: {
      customer: { email: placed.order.email, name: `${placed.order.givenName} ${placed.order.familyName}`, country: placed.order.country },
      orderNumber: placed.order.number,
      amountMinor: placed.payment.amountMinor,
      currency: placed.payment.currency,
      method,
      // The method's provider reads its own fields (a token its element made, card fields in our form).
      details: checkoutPartOf(method)?.server?.details(values) ?? {},
      saveMethod: isReusableMethod(method),
      returnUrl: returnPath,
    },
  });
  if (attempt.kind === "unavailable") return reply(503, texts.declines.provider_unavailable, {}, values.token, cookieHeader);
  const { outcome } = attempt;
  if (attempt.order.status === "paid") throw redirect(next, { status: 303, headers: cookieHeader });
  if (outcome.status === "requires_action") {
    if (outcome.actionUrl !== undefined) throw redirect(outcome.actionUrl, { status: 303, headers: cookieHeader });
    return data<CheckoutActionData>({ errors: {}, values: kept, token: values.token ?? "", message: null, ...shownQuotes(), nextAction: { clientSecret: outcome.clientSecret, returnPath } }, { status: 200, headers: cookieHeader });
  }
  if (outcome.status === "processing") throw redirect(thankYouPath(next, params.locale), { status: 303, headers: cookieHeader });
  const code = outcome.status === "declined" ? outcome.code : "card_declined";
  return reply(402, texts.declines[code], {}, values.token, cookieHeader);
}

function thankYouPath(next: string, locale: string | undefined): string {
  const query = next.includes("?") ? next.slice(next.indexOf("?")) : "";
  return `${locale ? routePath("thankyou-2", locale.toLowerCase()) : routePath("thankyou")}${query}`;
}

/** What a buyer back in another browser sees: the payment's state, in the order's language, and nothing of the order. */
export interface ReturnElsewhere {
  elsewhere: true;
  state: "paid" | "processing" | "waiting" | "failed";
  texts: CommerceTexts["checkout"]["returnElsewhere"];
}

/** Where the provider's pages send the buyer back: the order follows what the provider says. */
export async function returnFromProvider({ request, params }: { request: Request; params: { payment?: string } }): Promise<ReturnElsewhere> {
  const { db, providers, orderCookie, signingKey } = store();
  const payment = isUuid(params.payment) ? await paymentById(db, params.payment) : undefined;
  const ownOrder = await orderIdFromRequest(orderCookie, request.headers.get("Cookie"));
  if (!payment) throw data({ message: "Unknown payment" }, { status: 404 });
  const provider = providers.get(payment.provider);
  if (payment.orderId !== ownOrder) {
    // Another browser (a bank or wallet app opened the return there): the return token shows this
    // payment's state once the provider has been asked, and gives no access to the order.
    const token = new URL(request.url).searchParams.get("r") ?? "";
    if (!isPaymentReturnToken(signingKey, payment.id, token)) throw data({ message: "Unknown payment" }, { status: 404 });
    const refreshed = provider ? await refreshAttempt(db, provider, payment) : { payment };
    const order = await orderById(db, payment.orderId);
    const state = returnedPaymentState(refreshed.payment, order?.status);
    return { elsewhere: true, state, texts: commerceTextsFor(order?.locale ?? "").checkout.returnElsewhere };
  }
  // An attempt the store has closed (the buyer paid another way) is cancelled, never captured.
  let applied = provider ? await refreshAttempt(db, provider, payment) : { order: await orderById(db, payment.orderId), payment, outcome: null };
  const { outcome } = applied;
  // Back through the provider's cancel link without approving: the buyer cancelled this attempt.
  if (new URL(request.url).searchParams.has("cancelled") && outcome?.status === "requires_action") {
    applied = { ...(await applyPaymentOutcome(db, payment.id, { status: "declined", providerRef: outcome.providerRef, code: "cancelled" })), outcome };
  }
  // The provider needs the buyer once more after they approved (its capture answered that the payer
  // must act, or asked for another funding source): straight back to its page. A challenge left
  // unfinished in our page leads back to the form; paying again supersedes it.
  if (outcome?.status === "requires_action" && outcome.actionUrl !== undefined && applied.payment.status === "requires_action") throw redirect(outcome.actionUrl);
  const page = new URL(payment.returnPath, "http://store");
  const back = `${page.pathname}${page.search}`;
  // An upsell's payment leads on from its upsell page when it went through (or the provider is
  // confirming it, as on the upsell page itself), else back to it.
  const movesOn = applied.payment.status === "succeeded" || applied.payment.status === "processing";
  if (payment.upsellLine) throw redirect(movesOn ? nextPagePath(page.pathname, page.search) : back);
  const locale = /^\/checkout\/([^/]+)$/.exec(page.pathname)?.[1];
  if (applied.order?.status === "paid") throw redirect(nextStepPath(page, locale));
  // The provider holds the payment (a capture pending its review): not an empty checkout, but the
  // thank-you page saying the payment is being confirmed, as after a SEPA debit.
  if (applied.payment.status === "processing") throw redirect(thankYouPath(nextStepPath(page, locale), locale));
  throw redirect(back);
}
