import { and, asc, eq, isNull, lte, or } from "drizzle-orm";
import type { Database, Queryable, Transaction } from "../db/database.server";
import { orders } from "../orders/schema";
import { outbox } from "../mail/schema";
import { shipments, type shipmentSources } from "./schema";
import { fulfilLocked, noGoodsOwed, type FulfilmentRefusal } from "./fulfilment.server";
import { recordAudit, type Operator } from "../operators/audit.server";
import { enqueueMail } from "../mail/outbox.server";
import { normalizeOrderNumber } from "../orders/order-number";
import { recordEvent, type Order } from "../orders/order-records.server";
import { carriersFor, findCarrier, servesMarket, validTrackingNumber } from "./carriers.server";

/**
 * Parcels (decision 26): an order's carrier and tracking number, recorded on the order's page or
 * from the warehouse's CSV. The first parcel fulfils the order; each parcel sends the buyer one
 * shipping e-mail, and a corrected number sends a correction instead of a second shipping e-mail.
 */

export type Shipment = typeof shipments.$inferSelect;
export type ShipmentSource = (typeof shipmentSources)[number];

export type ShipmentRefusal =
  | "unknown_order"
  | "unknown_carrier"
  | "malformed_number"
  /** The carrier does not deliver in the order's market (a wrong column, or a wrong order). */
  | "carrier_not_in_market"
  /** The shipment to correct is not one of the order's current parcels. */
  | "nothing_to_correct"
  | FulfilmentRefusal;

export interface ParcelInput {
  orderNumber: string;
  /** A carrier's id or name as the operator or the warehouse wrote it. */
  carrier: string;
  trackingNumber: string;
  /** The id of the order's shipment whose carrier or number this one corrects. */
  corrects?: number | null;
}

export type ShipmentOutcome =
  | { kind: "recorded"; orderNumber: string; shipment: Shipment; mail: "shipped" | "correction" }
  /** The order has had this carrier and number already: nothing changes, nothing is sent. */
  | { kind: "unchanged"; orderNumber: string }
  /** `detail` says what would have been right, where there is more to say than the reason. */
  | { kind: "refused"; orderNumber: string | null; reason: ShipmentRefusal; detail?: string };

export const shipmentMailKind = "shipment";
export const correctionMailKind = "shipment-correction";

/**
 * Records one parcel under the order's row lock, with its event, audit row and e-mail in the same
 * transaction. An order not yet fulfilled is fulfilled by its first parcel (or refused for the
 * reasons fulfilment has); a fulfilled one takes further parcels while goods are owed, and
 * corrections always.
 */
export async function recordShipment(
  db: Database,
  operator: Operator,
  input: ParcelInput,
  { source, reviewDelayDays }: { source: ShipmentSource; reviewDelayDays: number },
): Promise<ShipmentOutcome> {
  const number = normalizeOrderNumber(input.orderNumber);
  if (!number) return { kind: "refused", orderNumber: null, reason: "unknown_order" };
  return db.transaction(async (tx): Promise<ShipmentOutcome> => {
    const [order] = await tx.select().from(orders).where(eq(orders.number, number)).for("update");
    if (!order) return { kind: "refused", orderNumber: null, reason: "unknown_order" };
    const refuse = (reason: ShipmentRefusal, detail?: string): ShipmentOutcome => ({ kind: "refused", orderNumber: order.number, reason, ...(detail ? { detail } : {}) });
    const carrier = findCarrier(input.carrier);
    if (!carrier) return refuse("unknown_carrier");
    const trackingNumber = validTrackingNumber(carrier, input.trackingNumber);
    if (!trackingNumber) return refuse("malformed_number", `${carrier.name} numbers look like this: ${carrier.numberFormat}`);
    if (!servesMarket(carrier.id, order.market)) {
      const there = carriersFor(order.market).map((candidate) => candidate.name);
      return refuse("carrier_not_in_market", `${carrier.name} does not deliver in the order's market, ${order.market}; carriers there: ${there.join(", ")}`);
    }
    const known = await shipmentsOf(tx, order.id);
    // Any number the order ever had, corrected ones included: a file imported again changes nothing.
    if (known.some((shipment) => shipment.carrier === carrier.id && shipment.trackingNumber === trackingNumber)) return { kind: "unchanged", orderNumber: order.number };
    const corrected = input.corrects ? known.find((shipment) => shipment.id === input.corrects && shipment.supersededBy === null) : undefined;
    if (input.corrects && !corrected) return refuse("nothing_to_correct");
    if (order.erasedAt) return refuse("erased");
    if (!order.fulfilledAt) {
      const refusal = await fulfilLocked(tx, operator, order, { reviewDelayDays });
      if (refusal) return refuse(refusal);
    } else if (!corrected) {
      // A further parcel only while goods are owed; a correction of one that went out stays possible.
      const refusal = await noGoodsOwed(tx, order);
      if (refusal) return refuse(refusal);
    }
    const [shipment] = await tx.insert(shipments).values({ orderId: order.id, carrier: carrier.id, trackingNumber, source }).returning();
    if (!shipment) throw new Error(`The shipment of order ${order.id} was not stored`);
    const detail = { shipment: shipment.id, carrier: carrier.id, source };
    if (corrected) {
      await tx.update(shipments).set({ supersededBy: shipment.id, supersededAt: new Date() }).where(eq(shipments.id, corrected.id));
      await recordEvent(tx, order.id, "shipment_corrected", { ...detail, corrects: corrected.id });
      await recordAudit(tx, operator, "shipment_corrected", { orderId: order.id, detail: { ...detail, corrects: corrected.id } });
    } else {
      await recordEvent(tx, order.id, "shipment_recorded", detail);
      await recordAudit(tx, operator, "shipment_recorded", { orderId: order.id, detail });
    }
    const mail = await queueShipmentMail(tx, order, shipment, corrected);
    return { kind: "recorded", orderNumber: order.number, shipment, mail };
  });
}

/**
 * The e-mail for a new shipment. A correction whose wrong number has not gone out yet withdraws
 * that e-mail and sends the right one as an ordinary shipping e-mail: the buyer is never told of a
 * mistake they never saw. A message the worker holds (leased) is left to go, and the correction follows.
 */
async function queueShipmentMail(tx: Transaction, order: Order, shipment: Shipment, corrected: Shipment | undefined): Promise<"shipped" | "correction"> {
  const withdrawn = corrected
    ? await tx
        .update(outbox)
        .set({ status: "failed", lastError: `withdrawn: shipment ${corrected.id} was corrected before this e-mail went out` })
        .where(and(eq(outbox.dedupeKey, `${shipmentMailKind}:${corrected.id}`), eq(outbox.status, "pending"), or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, new Date()))))
        .returning({ id: outbox.id })
    : [];
  const kind = corrected && withdrawn.length === 0 ? correctionMailKind : shipmentMailKind;
  await enqueueMail(tx, {
    kind,
    dedupeKey: `${kind}:${shipment.id}`,
    recipient: order.email,
    locale: order.locale,
    orderId: order.id,
    payload: { shipmentId: shipment.id, ...(kind === correctionMailKind && corrected ? { correctsId: corrected.id } : {}) },
  });
  return kind === correctionMailKind ? "correction" : "shipped";
}

/** An order's parcels, oldest first, corrected ones included. */
export async function shipmentsOf(db: Queryable, orderId: string): Promise<Shipment[]> {
  return db.select().from(shipments).where(eq(shipments.orderId, orderId)).orderBy(asc(shipments.id));
}

export async function shipmentById(db: Queryable, id: number): Promise<Shipment | undefined> {
  const [shipment] = await db.select().from(shipments).where(eq(shipments.id, id));
  return shipment;
}
