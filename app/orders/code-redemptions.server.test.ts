import { eq, sql } from "drizzle-orm";
import { customerKey } from "../codes/code-terms";
import { describe, expect, it } from "vitest";
import { createCode, issueWelcomeCode } from "../codes/codes.server";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { placeTestOrder, testBuyer, testToday } from "../test-support/orders";
import { assessCode, reserveCode, settleRedemption, type CodeRequest } from "./code-redemptions.server";
import { customerKeySql } from "./customer-key";
import { codeRedemptions, orders } from "./schema";
import { codeTerms } from "../test-support/code-terms";


const request = (code: string, overrides: Partial<CodeRequest> = {}): CodeRequest => ({
  code,
  email: testBuyer.email,
  country: "DE",
  currency: "EUR",
  linesMinor: 8970,
  now: testToday,
  ...overrides,
});

describe.each(databaseKinds)("code redemptions on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("previews a code's discount, and refuses one that does not exist", async () => {
    await createCode(database.db, codeTerms("PREVIEW10"));
    expect(await assessCode(database.db, request("PREVIEW10"))).toMatchObject({ ok: true, code: "PREVIEW10", discountMinor: 897 });
    expect(await assessCode(database.db, request("NOSUCHCODE"))).toEqual({ ok: false, refusal: "unknown" });
  });

  it("refuses a second code with the same text", async () => {
    expect(await createCode(database.db, codeTerms("TWICE"))).not.toBeNull();
    expect(await createCode(database.db, codeTerms("TWICE"))).toBeNull();
  });

  it("holds a once-per-customer code for its order, counts it against the same buyer in any case, and frees it when released", async () => {
    await createCode(database.db, codeTerms("ONCEEACH"));
    const { order } = await placeTestOrder(database.db);
    await database.db.transaction((tx) => reserveCode(tx, { ...request("ONCEEACH"), orderId: order.id }));
    // Its own order may be placed again; another order of the same buyer (however the address is written) may not.
    expect(await assessCode(database.db, { ...request("ONCEEACH"), orderId: order.id })).toMatchObject({ ok: true });
    expect(await assessCode(database.db, request("ONCEEACH", { email: " A@Example.COM " }))).toEqual({ ok: false, refusal: "used" });
    expect(await assessCode(database.db, request("ONCEEACH", { email: "someone.else@example.com" }))).toMatchObject({ ok: true });

    await database.db.transaction((tx) => settleRedemption(tx, order.id, "released", testToday));
    expect(await assessCode(database.db, request("ONCEEACH"))).toMatchObject({ ok: true });
  });

  it("counts a once-per-customer code by the address without its +tag, and gmail's without dots", async () => {
    await createCode(database.db, codeTerms("ALIASED"));
    const { order } = await placeTestOrder(database.db);
    await database.db.transaction((tx) => reserveCode(tx, { ...request("ALIASED", { email: "lena.schmidt@gmail.com" }), orderId: order.id }));
    for (const email of ["lena.schmidt+2@gmail.com", "LenaSchmidt@googlemail.com", "l.e.n.a.schmidt@gmail.com"]) {
      expect(await assessCode(database.db, request("ALIASED", { email })), email).toEqual({ ok: false, refusal: "used" });
    }
    expect(await assessCode(database.db, request("ALIASED", { email: "lena.schmidt@web.de" }))).toMatchObject({ ok: true });
  });

  it("refuses a first-order code to a buyer whose paid order was under an alias of the address", async () => {
    await createCode(database.db, codeTerms("FIRSTALIAS", { firstOrderOnly: true }));
    const { order } = await placeTestOrder(database.db);
    await database.db.update(orders).set({ email: "Max.Muster+shop@googlemail.com", paidAt: testToday }).where(eq(orders.id, order.id));
    expect(await assessCode(database.db, request("FIRSTALIAS", { email: "maxmuster@gmail.com" }))).toEqual({ ok: false, refusal: "not_first_order" });
    expect(await assessCode(database.db, request("FIRSTALIAS", { email: "max.muster+new@gmail.com" }))).toEqual({ ok: false, refusal: "not_first_order" });
    expect(await assessCode(database.db, request("FIRSTALIAS", { email: "max.muster@example.com" }))).toMatchObject({ ok: true });
  });

  it("refuses a second first-order code while the buyer's first order with another is still unpaid", async () => {
    await createCode(database.db, codeTerms("WELCOMEA", { firstOrderOnly: true }));
    await createCode(database.db, codeTerms("WELCOMEB", { firstOrderOnly: true }));
    const { order: first } = await placeTestOrder(database.db);
    const { order: second } = await placeTestOrder(database.db);
    await database.db.transaction((tx) => reserveCode(tx, { ...request("WELCOMEA", { email: "new+1@example.com" }), orderId: first.id }));
    expect(await database.db.transaction((tx) => reserveCode(tx, { ...request("WELCOMEB", { email: "new+2@example.com" }), orderId: second.id }))).toEqual({ ok: false, refusal: "not_first_order" });
    // The first order may be placed again with its own code; once its reservation is released, the other code is free.
    expect(await assessCode(database.db, { ...request("WELCOMEA", { email: "new@example.com" }), orderId: first.id })).toMatchObject({ ok: true });
    await database.db.transaction((tx) => settleRedemption(tx, first.id, "released", testToday));
    expect(await assessCode(database.db, request("WELCOMEB", { email: "new@example.com" }))).toMatchObject({ ok: true });
  });

  it("lets only one of several orders of one buyer, placed at once with different first-order codes, pass as a first order", async () => {
    const codes = ["RACEWELCOMEA", "RACEWELCOMEB", "RACEWELCOMEC", "RACEWELCOMED"];
    for (const code of codes) await createCode(database.db, codeTerms(code, { firstOrderOnly: true, oncePerCustomer: false }));
    const placed = await Promise.all(codes.map(() => placeTestOrder(database.db)));
    const results = await Promise.all(
      placed.map(({ order }, index) => database.db.transaction((tx) => reserveCode(tx, { ...request(codes[index] ?? "", { email: `racer+${index}@example.com` }), orderId: order.id }))),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });

  it("computes the customer key in SQL exactly as in the code", async () => {
    const addresses = [
      "a@example.com",
      "  Lena.Schmidt@Example.COM ",
      "\tlena@example.com\n",
      "lena+shop@example.com",
      "Lena+a+b@Example.com",
      "lena.schmidt+x@web.de",
      "Lena.Schmidt@gmail.com",
      "l.e.n.a+promo@GoogleMail.com",
      "lena@gmail.com.example.org",
      "lena@notgmail.com",
      "+tag@example.com",
      "no-at-sign",
      "a+b@c@d.example",
    ];
    const { order } = await placeTestOrder(database.db);
    for (const address of addresses) {
      const [row] = await database.db
        .select({ key: customerKeySql(sql`${address}::text`) })
        .from(orders)
        .where(eq(orders.id, order.id));
      expect(row?.key, JSON.stringify(address)).toBe(customerKey(address));
    }
  });

  it("keeps a redemption once paid: a released order cannot release it again", async () => {
    await createCode(database.db, codeTerms("KEEPIT", { maxRedemptions: 1 }));
    const { order } = await placeTestOrder(database.db);
    await database.db.transaction((tx) => reserveCode(tx, { ...request("KEEPIT"), orderId: order.id }));
    await database.db.transaction((tx) => settleRedemption(tx, order.id, "kept", testToday));
    await database.db.transaction((tx) => settleRedemption(tx, order.id, "released", testToday));
    const [row] = await database.db.select().from(codeRedemptions).where(eq(codeRedemptions.orderId, order.id));
    expect(row).toMatchObject({ status: "kept", discountMinor: 897, currency: "EUR" });
    expect(await assessCode(database.db, request("KEEPIT", { email: "other@example.com" }))).toEqual({ ok: false, refusal: "used" });
  });

  it("counts an unpaid order's reservation only for an hour, and a paid one's always", async () => {
    await createCode(database.db, codeTerms("HELDAWHILE", { maxRedemptions: 1 }));
    const { order: abandoned } = await placeTestOrder(database.db);
    await database.db.transaction((tx) => reserveCode(tx, { ...request("HELDAWHILE"), orderId: abandoned.id }));
    const later = (minutes: number) => new Date(testToday.getTime() + minutes * 60_000);
    // The abandoned order holds the code's only redemption, against everyone and against its own buyer, for an hour.
    expect(await assessCode(database.db, request("HELDAWHILE", { email: "other@example.com", now: later(59) }))).toEqual({ ok: false, refusal: "used" });
    expect(await assessCode(database.db, request("HELDAWHILE", { now: later(59) }))).toEqual({ ok: false, refusal: "used" });
    expect(await assessCode(database.db, request("HELDAWHILE", { email: "other@example.com", now: later(60) }))).toMatchObject({ ok: true });
    expect(await assessCode(database.db, request("HELDAWHILE", { now: later(60) }))).toMatchObject({ ok: true });

    // Another buyer takes it after the hour and pays: kept, it counts however long ago it was.
    const { order: paid } = await placeTestOrder(database.db);
    await database.db.transaction((tx) => reserveCode(tx, { ...request("HELDAWHILE", { email: "other@example.com", now: later(61) }), orderId: paid.id }));
    await database.db.transaction((tx) => settleRedemption(tx, paid.id, "kept", later(62)));
    expect(await assessCode(database.db, request("HELDAWHILE", { email: "third@example.com", now: later(60 * 24 * 30) }))).toEqual({ ok: false, refusal: "used" });
  });

  it("lets only one of many buyers racing for a code's last redemption have it", async () => {
    await createCode(database.db, codeTerms("LASTONE", { maxRedemptions: 1, oncePerCustomer: false }));
    const placed = await Promise.all(Array.from({ length: 6 }, () => placeTestOrder(database.db)));
    const results = await Promise.all(
      placed.map(({ order }, index) => database.db.transaction((tx) => reserveCode(tx, { ...request("LASTONE", { email: `buyer${index}@example.com` }), orderId: order.id }))),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual(Array.from({ length: 5 }, () => ({ ok: false, refusal: "used" })));
  });

  it("issues welcome codes that are unique, single use, 10 % off a first order, for 30 days", async () => {
    const first = await issueWelcomeCode(database.db, testToday);
    const second = await issueWelcomeCode(database.db, testToday);
    expect(first.code).toMatch(/^HELLO[A-HJ-NP-Z2-9]{8}$/);
    expect(second.code).not.toBe(first.code);
    expect(first.validUntil.getTime() - testToday.getTime()).toBe(30 * 24 * 60 * 60 * 1000);
    expect(await assessCode(database.db, request(first.code, { email: "new.buyer@example.com" }))).toMatchObject({ ok: true, discountMinor: 897 });
    expect(await assessCode(database.db, request(first.code, { email: "new.buyer@example.com", now: first.validUntil }))).toEqual({ ok: false, refusal: "expired" });

    // A buyer with a paid order is not on a first order.
    const { order } = await placeTestOrder(database.db);
    await database.db.update(orders).set({ email: "returning@example.com", paidAt: testToday }).where(eq(orders.id, order.id));
    expect(await assessCode(database.db, request(first.code, { email: "Returning@example.com" }))).toEqual({ ok: false, refusal: "not_first_order" });
  });
});
