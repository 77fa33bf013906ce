import { lineNameIn } from "../catalog/catalog.server";
import { and, eq } from "drizzle-orm";
import { payments } from "../orders/schema";
import type { Queryable } from "../db/database.server";
import { orderCookieName, orderIdFromRequest } from "../orders/order-access.server";
import { linesOf, orderById, type Order } from "../orders/order-records.server";
import { redemptionOf } from "../orders/code-redemptions.server";
import { endFunnel } from "../orders/order-service.server";
import { routeEntryForPath } from "../funnel/route-for-path";
import { store } from "../store/store.server";

/** An order as its buyer's own pages show it: no internal ids, tokens or payment references. */
export interface OrderView {
  number: string;
  status: string;
  paid: boolean;
  test: boolean;
  currency: string;
  /** Each line's `grossMinor` is what was paid for it, after its share of the code, `discountMinor`. */
  lines: { bundleId: string; productName: string; kind: "supplement" | "digital"; units: number; grossMinor: number; discountMinor: number }[];
  /** The code the order redeemed and what it took off its lines. */
  discount: { code: string; discountMinor: number } | null;
  deliveryMinor: number;
  vatMinor: number;
  totalMinor: number;
  address: string[];
  country: string;
}

const orderCookiePattern = new RegExp(`(?:^|;\\s*)${orderCookieName}=`);

/** Whether a request may be for someone's own order page; prerendered files carry no cookie. */
function mayCarryOrder(request: Request): boolean {
  return orderCookiePattern.test(request.headers.get("Cookie") ?? "");
}

/**
 * Whether the server must render a path instead of serving its prerendered file: upsell and
 * thank-you pages show a buyer's own order when the browser holds an order cookie.
 */
export function rendersOwnOrder(pathname: string, cookieHeader: string | undefined): boolean {
  if (!orderCookiePattern.test(cookieHeader ?? "")) return false;
  const page = routeEntryForPath(pathname.replace(/\.data$/, ""))?.page;
  // A provider's return page finishes a buyer's payment when the provider sends them back to it.
  return page === "upsell" || page === "thank-you" || page === "payment-return";
}

/** The order the browser's access cookie names; none for prerendering or a browser without the cookie. */
export async function cookieOrder(request: Request): Promise<Order | undefined> {
  if (!mayCarryOrder(request)) return undefined;
  const { db, orderCookie } = store();
  const orderId = await orderIdFromRequest(orderCookie, request.headers.get("Cookie"));
  return orderId ? orderById(db, orderId) : undefined;
}

/**
 * The buyer has paid as far as they can and the provider is still confirming (a capture the
 * provider holds pending, a SEPA debit): the order is shown, saying its payment is being confirmed.
 */
async function awaitingProvider(db: Queryable, orderId: string): Promise<boolean> {
  const [processing] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.purpose, "checkout"), eq(payments.status, "processing")))
    .limit(1);
  return processing !== undefined;
}

/**
 * What the thank-you page shows of the browser's own order (`cookieOrder`). With `endsFunnel`,
 * reaching the page ends the order's funnel: its confirmation goes out now.
 */
export async function orderView(order: Order | undefined, options: { endsFunnel: boolean }): Promise<OrderView | null> {
  if (!order || order.status === "payment_failed" || order.status === "cancelled") return null;
  const { db } = store();
  if (order.status === "pending_payment" && !(await awaitingProvider(db, order.id))) return null;
  if (options.endsFunnel) await endFunnel(db, order.id);
  const lines = await linesOf(db, order.id);
  const redemption = await redemptionOf(db, order.id);
  return {
    number: order.number,
    status: order.status,
    paid: order.paidAt !== null,
    test: order.test,
    currency: order.currency,
    lines: lines.map((line) => ({ bundleId: line.bundleId, productName: lineNameIn(order.locale, line), kind: line.kind, units: line.units, grossMinor: line.grossMinor, discountMinor: line.discountMinor })),
    discount: redemption && redemption.status !== "released" ? { code: redemption.code, discountMinor: redemption.discountMinor } : null,
    deliveryMinor: order.deliveryMinor,
    vatMinor: order.vatMinor,
    totalMinor: order.totalMinor,
    address: [`${order.givenName} ${order.familyName}`, order.addressLine1, order.addressLine2, `${order.postalCode} ${order.city}`].filter(Boolean),
    country: order.country,
  };
}
