import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database.server";
import { disputes, orderLines, orders, payments, refunds } from "../orders/schema";
import { outbox } from "../mail/schema";
import { composeMail } from "../emails/compose.server";
import { markSent } from "../mail/outbox.server";
import { markets } from "../market/markets";
import type { Operator } from "../operators/audit.server";
import { paidTestOrder, testOperator } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder } from "../test-support/orders";
import { recordShipment, shipmentsOf, type ParcelInput } from "./shipments.server";
import { importTrackingCsv } from "./tracking-import.server";

const mailContext = { from: "Store <shop@example.com>", publicUrl: "https://shop.example", signingKey: "test-signing-key" };
const options = { source: "order-page", reviewDelayDays: 7 } as const;

describe.each(databaseKinds)("parcels on %s", (kind) => {
  const database = useTestDatabase(kind);
  let db: Database;
  let operator: Operator;
  beforeAll(async () => {
    db = database.db;
    operator = await testOperator(db);
  });

  const mailsOf = async (orderId: string) => (await db.select().from(outbox).where(eq(outbox.orderId, orderId))).filter((mail) => mail.kind.startsWith("shipment"));
  const record = (input: ParcelInput) => recordShipment(db, operator, input, options);
  const composed = async (mailId: number) => {
    const [row] = await db.select().from(outbox).where(eq(outbox.id, mailId));
    if (!row) throw new Error(`no e-mail ${mailId}`);
    return composeMail(row, { db, ...mailContext });
  };

  it("fulfils the order with its first parcel and queues one shipping e-mail with the carrier's link", async () => {
    const { order } = await paidTestOrder(db);
    const outcome = await record({ orderNumber: order.number, carrier: "DHL", trackingNumber: "0034 0434 1612 3456 7890" });
    expect(outcome).toMatchObject({ kind: "recorded", mail: "shipped", shipment: { carrier: "dhl", trackingNumber: "00340434161234567890", supersededBy: null } });
    const [stored] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(stored?.status).toBe("fulfilled");
    expect(stored?.fulfilledAt).toBeInstanceOf(Date);
    const mails = await mailsOf(order.id);
    expect(mails.map((mail) => [mail.kind, mail.recipient, mail.locale])).toEqual([["shipment", "a@example.com", "de_DE"]]);
    const mail = await composed(mails[0]?.id ?? 0);
    expect(mail?.subject).toBe(`Ihre Vitanor-Bestellung ${order.number} ist unterwegs`);
    expect(mail?.text).toContain("Sendungsnummer: 00340434161234567890");
    expect(mail?.html).toContain('href="https://www.dhl.com/global-en/home/tracking/tracking-parcel.html?submit=1&amp;tracking-id=00340434161234567890"');
  });

  it.each(markets.map((market) => [market.country, market.locale]))("writes the shipping e-mail of a %s order in %s", async (country, locale) => {
    const { order } = await paidTestOrder(db);
    await db.update(orders).set({ market: country, locale }).where(eq(orders.id, order.id));
    const outcome = await record({ orderNumber: order.number, carrier: "UPS", trackingNumber: "1Z999AA10123456784" });
    expect(outcome.kind).toBe("recorded");
    const [row] = await mailsOf(order.id);
    const mail = await composed(row?.id ?? 0);
    expect(mail?.text).toContain("https://www.ups.com/track?tracknum=1Z999AA10123456784");
    expect(mail?.html).toContain(`lang="${markets.find((market) => market.country === country)?.languageTag}"`);
    expect(mail?.subject).toContain(order.number);
  });

  it("records the same parcel once, however often it is sent, and e-mails once", async () => {
    const { order } = await paidTestOrder(db);
    const parcel = { orderNumber: order.number, carrier: "dpd", trackingNumber: "01234567890123" };
    expect((await record(parcel)).kind).toBe("recorded");
    expect(await record({ ...parcel, carrier: "DPD", trackingNumber: "0123 4567 8901 23" })).toEqual({ kind: "unchanged", orderNumber: order.number });
    expect(await shipmentsOf(db, order.id)).toHaveLength(1);
    expect(await mailsOf(order.id)).toHaveLength(1);
  });

  it("sends a second parcel its own e-mail that says it is another parcel", async () => {
    const { order } = await paidTestOrder(db);
    await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567890" });
    const second = await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567891" });
    expect(second).toMatchObject({ kind: "recorded", mail: "shipped" });
    const mails = await mailsOf(order.id);
    expect(mails.map((mail) => mail.kind)).toEqual(["shipment", "shipment"]);
    expect((await composed(mails[1]?.id ?? 0))?.subject).toBe(`Ein weiteres Paket Ihrer Vitanor-Bestellung ${order.number} ist unterwegs`);
  });

  it("corrects a number the buyer was sent with a correction, never a second shipping e-mail", async () => {
    const { order } = await paidTestOrder(db);
    const first = await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567890" });
    if (first.kind !== "recorded") throw new Error("expected a shipment");
    const [sent] = await mailsOf(order.id);
    await markSent(db, sent?.id ?? 0);
    const corrected = await record({ orderNumber: order.number, carrier: "gls", trackingNumber: "12345678901", corrects: first.shipment.id });
    expect(corrected).toMatchObject({ kind: "recorded", mail: "correction" });
    const [old, current] = await shipmentsOf(db, order.id);
    expect(old?.supersededBy).toBe(current?.id);
    expect(old?.supersededAt).toBeInstanceOf(Date);
    const mails = await mailsOf(order.id);
    expect(mails.map((mail) => [mail.kind, mail.status])).toEqual([
      ["shipment", "sent"],
      ["shipment-correction", "pending"],
    ]);
    const correction = await composed(mails[1]?.id ?? 0);
    expect(correction?.subject).toBe(`Korrigierte Sendungsnummer für Ihre Vitanor-Bestellung ${order.number}`);
    expect(correction?.text).toContain("Nicht mehr gültig: DHL 00340434161234567890");
    expect(correction?.text).toContain("https://gls-group.com/track/12345678901");
    // The corrected number, written again, is known: nothing new is recorded or sent.
    expect((await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567890" })).kind).toBe("unchanged");
    expect(await mailsOf(order.id)).toHaveLength(2);
  });

  it("withdraws a shipping e-mail not yet sent when its number is corrected, and sends the right one instead", async () => {
    const { order } = await paidTestOrder(db);
    const first = await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567890" });
    if (first.kind !== "recorded") throw new Error("expected a shipment");
    const corrected = await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567899", corrects: first.shipment.id });
    expect(corrected).toMatchObject({ kind: "recorded", mail: "shipped" });
    const mails = await mailsOf(order.id);
    expect(mails.map((mail) => [mail.kind, mail.status])).toEqual([
      ["shipment", "failed"],
      ["shipment", "pending"],
    ]);
    // Had the worker taken the withdrawn one anyway, it would find nothing to say.
    expect(await composed(mails[0]?.id ?? 0)).toBeNull();
    expect((await composed(mails[1]?.id ?? 0))?.subject).toBe(`Ihre Vitanor-Bestellung ${order.number} ist unterwegs`);
  });

  const refusals: [string, (number: string) => ParcelInput, string][] = [
    ["an unknown order", () => ({ orderNumber: "VN-2222-2222", carrier: "dhl", trackingNumber: "00340434161234567890" }), "unknown_order"],
    ["a malformed order number", () => ({ orderNumber: "12345", carrier: "dhl", trackingNumber: "00340434161234567890" }), "unknown_order"],
    ["an unknown carrier", (number) => ({ orderNumber: number, carrier: "Hermes", trackingNumber: "00340434161234567890" }), "unknown_carrier"],
    ["a malformed number", (number) => ({ orderNumber: number, carrier: "ups", trackingNumber: "1Z12" }), "malformed_number"],
    ["a carrier that does not serve the market", (number) => ({ orderNumber: number, carrier: "Royal Mail", trackingNumber: "AB123456789GB" }), "carrier_not_in_market"],
    ["a correction of a parcel the order does not have", (number) => ({ orderNumber: number, carrier: "dhl", trackingNumber: "00340434161234567890", corrects: 999_999 }), "nothing_to_correct"],
  ];

  it("names the carrier's documented format when it refuses a number, and the carrier, the market and its carriers when the carrier does not deliver there", async () => {
    const { order } = await paidTestOrder(db);
    expect(await record({ orderNumber: order.number, carrier: "ups", trackingNumber: "1Z12" })).toEqual({
      kind: "refused",
      orderNumber: order.number,
      reason: "malformed_number",
      detail: "UPS numbers look like this: a package's tracking number starts with 1Z followed by 16 letters and digits",
    });
    expect(await record({ orderNumber: order.number, carrier: "Royal Mail", trackingNumber: "AB123456789GB" })).toEqual({
      kind: "refused",
      orderNumber: order.number,
      reason: "carrier_not_in_market",
      detail: "Royal Mail does not deliver in the order's market, DE; carriers there: DHL, Deutsche Post, DPD, GLS, UPS",
    });
  });

  it.each(refusals)("refuses %s and changes nothing", async (_, input, reason) => {
    const { order } = await paidTestOrder(db);
    expect(await record(input(order.number))).toMatchObject({ kind: "refused", reason });
    expect(await shipmentsOf(db, order.id)).toEqual([]);
    expect((await db.select().from(orders).where(eq(orders.id, order.id)))[0]?.fulfilledAt).toBeNull();
    expect(await mailsOf(order.id)).toEqual([]);
  });

  it.each([
    ["an order whose funnel is still open", async () => (await paidTestOrder(db, { endFunnel: false })).order.number, "funnel_open"],
    ["an order never paid", async () => (await placeTestOrder(db)).order.number, "not_shippable"],
  ])("refuses a parcel for %s, as fulfilment does", async (_, orderNumber, reason) => {
    expect(await record({ orderNumber: await orderNumber(), carrier: "dhl", trackingNumber: "00340434161234567890" })).toMatchObject({ kind: "refused", reason });
  });

  it.each(["refunded", "withdrawn", "cancelled"] as const)("refuses a new parcel of a %s order, on its page and from the CSV, and sends nothing, yet takes a correction", async (status) => {
    const { order } = await paidTestOrder(db);
    const first = await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567890" });
    if (first.kind !== "recorded") throw new Error("expected a shipment");
    await db.update(orders).set({ status }).where(eq(orders.id, order.id));
    expect(await record({ orderNumber: order.number, carrier: "dpd", trackingNumber: "01234567890123" })).toEqual({ kind: "refused", orderNumber: order.number, reason: "not_shippable" });
    const imported = await importTrackingCsv(db, operator, ["Order number,Carrier,Tracking number", `${order.number},UPS,1Z999AA10123456784`].join("\r\n"), { reviewDelayDays: 7 });
    if (imported.kind !== "imported") throw new Error(imported.reason);
    expect(imported.lines.map(({ outcome }) => (outcome.kind === "refused" ? outcome.reason : outcome.kind))).toEqual(["not_shippable"]);
    expect(await shipmentsOf(db, order.id)).toHaveLength(1);
    expect((await mailsOf(order.id)).map((mail) => mail.kind)).toEqual(["shipment"]);
    // The parcel that did go out may still have its number put right.
    expect(await record({ orderNumber: order.number, carrier: "gls", trackingNumber: "12345678901", corrects: first.shipment.id })).toMatchObject({ kind: "recorded" });
  });

  it("refuses a new parcel of a fulfilled order whose every pack is given back", async () => {
    const { order } = await paidTestOrder(db);
    expect((await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567890" })).kind).toBe("recorded");
    const lines = await db.select().from(orderLines).where(eq(orderLines.orderId, order.id));
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id));
    if (!payment) throw new Error("no payment");
    await db.insert(refunds).values({ id: randomUUID(), orderId: order.id, paymentId: payment.id, amountMinor: 1, reason: "damaged", status: "succeeded", lineIds: lines.map((line) => line.id), idempotencyKey: `all-${order.id}` });
    await db.update(orders).set({ status: "partially_refunded" }).where(eq(orders.id, order.id));
    expect(await record({ orderNumber: order.number, carrier: "dpd", trackingNumber: "01234567890123" })).toMatchObject({ kind: "refused", reason: "nothing_to_ship" });
  });

  it.each([
    ["open", "open", null],
    ["lost", "closed", "lost"],
    ["lost at PayPal", "closed", "RESOLVED_BUYER_FAVOUR"],
  ] as const)("refuses a new parcel of a fulfilled order whose dispute is %s, on its page and from the CSV, yet takes a correction", async (_, status, outcome) => {
    const { order } = await paidTestOrder(db);
    const first = await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567890" });
    if (first.kind !== "recorded") throw new Error("expected a shipment");
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id));
    if (!payment) throw new Error("no payment");
    await db.insert(disputes).values({ id: randomUUID(), orderId: order.id, paymentId: payment.id, provider: "stripe", providerRef: `dp_${randomUUID()}`, status, outcome });
    expect(await record({ orderNumber: order.number, carrier: "dpd", trackingNumber: "01234567890123" })).toEqual({ kind: "refused", orderNumber: order.number, reason: "disputed" });
    const imported = await importTrackingCsv(db, operator, ["Order number,Carrier,Tracking number", `${order.number},UPS,1Z999AA10123456784`].join("\r\n"), { reviewDelayDays: 7 });
    if (imported.kind !== "imported") throw new Error(imported.reason);
    expect(imported.lines.map(({ outcome: line }) => (line.kind === "refused" ? line.reason : line.kind))).toEqual(["disputed"]);
    expect(await shipmentsOf(db, order.id)).toHaveLength(1);
    expect((await mailsOf(order.id)).map((mail) => mail.kind)).toEqual(["shipment"]);
    expect(await record({ orderNumber: order.number, carrier: "gls", trackingNumber: "12345678901", corrects: first.shipment.id })).toMatchObject({ kind: "recorded" });
  });

  it("takes a further parcel of a fulfilled order once its dispute closed in the store's favour", async () => {
    const { order } = await paidTestOrder(db);
    expect((await record({ orderNumber: order.number, carrier: "dhl", trackingNumber: "00340434161234567890" })).kind).toBe("recorded");
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id));
    if (!payment) throw new Error("no payment");
    await db.insert(disputes).values({ id: randomUUID(), orderId: order.id, paymentId: payment.id, provider: "stripe", providerRef: `dp_${randomUUID()}`, status: "closed", outcome: "won" });
    expect(await record({ orderNumber: order.number, carrier: "dpd", trackingNumber: "01234567890123" })).toMatchObject({ kind: "recorded" });
  });

  describe("the warehouse's CSV", () => {
    it("applies the good lines, refuses each bad one with its reason, and sends nothing twice when imported again", async () => {
      const [first, second] = [await paidTestOrder(db), await paidTestOrder(db)];
      const csv = [
        "\uFEFFOrder number,Carrier,Tracking number,Packs",
        `${first.order.number},DHL,00340434161234567890,3`,
        `${second.order.number.toLowerCase()},dpd,0123 4567 8901 23,3`,
        "VN-2222-2222,DHL,00340434161234567890,1",
        `${first.order.number},Hermes,H1234567890,1`,
        `${second.order.number},UPS,1Z12,1`,
        `${second.order.number},Royal Mail,AB123456789GB,1`,
        "",
      ].join("\r\n");
      const imported = await importTrackingCsv(db, operator, csv, { reviewDelayDays: 7 });
      if (imported.kind !== "imported") throw new Error(imported.reason);
      expect(imported.lines.map(({ line, outcome }) => [line, outcome.kind, outcome.kind === "refused" ? outcome.reason : null])).toEqual([
        [2, "recorded", null],
        [3, "recorded", null],
        [4, "refused", "unknown_order"],
        [5, "refused", "unknown_carrier"],
        [6, "refused", "malformed_number"],
        [7, "refused", "carrier_not_in_market"],
      ]);
      expect((await mailsOf(first.order.id)).map((mail) => mail.kind)).toEqual(["shipment"]);
      expect((await mailsOf(second.order.id)).map((mail) => mail.kind)).toEqual(["shipment"]);

      const again = await importTrackingCsv(db, operator, csv, { reviewDelayDays: 7 });
      if (again.kind !== "imported") throw new Error(again.reason);
      expect(again.lines.slice(0, 2).map(({ outcome }) => outcome.kind)).toEqual(["unchanged", "unchanged"]);
      expect(await mailsOf(first.order.id)).toHaveLength(1);
      expect(await mailsOf(second.order.id)).toHaveLength(1);
    });

    it("reads the columns by their headers, in any order, with the export's apostrophe before a cell", async () => {
      const { order } = await paidTestOrder(db);
      const csv = `tracking number,Carrier,ORDER NUMBER\n'00340434161234567890,DHL,${order.number}\n`;
      const imported = await importTrackingCsv(db, operator, csv, { reviewDelayDays: 7 });
      expect(imported).toMatchObject({ kind: "imported", lines: [{ line: 2, outcome: { kind: "recorded" } }] });
    });

    it.each([
      ["a file without the columns", "Order,Parcel\nVN-2222-2222,123\n", '"Carrier", "Tracking number" are missing'],
      ["a file cut off inside a quote", 'Order number,Carrier,Tracking number\nVN-2222-2222,"DHL,123\n', "not a CSV file we can read"],
      ["an empty file", "", '"Order number", "Carrier", "Tracking number" are missing'],
    ])("refuses %s as a whole, saying why", async (_, csv, reason) => {
      const imported = await importTrackingCsv(db, operator, csv, { reviewDelayDays: 7 });
      expect(imported.kind).toBe("unreadable");
      expect(imported.kind === "unreadable" ? imported.reason : "").toContain(reason);
    });
  });
});
