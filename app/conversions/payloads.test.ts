import { describe, expect, it } from "vitest";
import { validationMessagesOf } from "../../tests/fakes/ga4-measurement-protocol";
import { fbcOf, ga4PurchaseBody, ga4RefundBody, gaClientIdOf, hashedEmail, majorUnits, metaEventsBody, metaPurchaseEvent, type PurchaseFacts } from "./payloads";

const facts: PurchaseFacts = {
  orderNumber: "VN-2026-000123",
  email: "  Anna.Muster@Example.COM ",
  currency: "EUR",
  totalMinor: 12_670,
  lines: [
    { bundleId: "shape-3", productName: "Shape", grossMinor: 8_970 },
    { bundleId: "ebook-1", productName: "Recipe book", grossMinor: 1_900 },
    { bundleId: "mind-1", productName: "Mind", grossMinor: 1_800 },
  ],
  paidAt: new Date("2026-11-27T10:00:00Z"),
  eventSourceUrl: "https://shop.example.test/checkout/de",
  fbc: "fb.1.1795773600000.IwAR2F4-dbP0l7Mn1IawQQ",
  clientAddress: "203.0.113.7",
  clientUserAgent: "Mozilla/5.0 (X11; Linux x86_64)",
  gaClientId: "123456789.1795773600",
};

describe("the e-mail Meta matches by", () => {
  it.each([
    ["anna.muster@example.com", "anna.muster@example.com"],
    ["  Anna.Muster@Example.COM ", "anna.muster@example.com"],
    ["ANNA.MUSTER@EXAMPLE.COM\n", "anna.muster@example.com"],
  ])("hashes %j as %j, trimmed and lower-cased", (email, normalised) => {
    expect(hashedEmail(email)).toBe(hashedEmail(normalised));
    expect(hashedEmail(email)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("is SHA-256 in hex, as Meta's own example hashes it", () => {
    // The SHA-256 of "" is the well-known e3b0…b855.
    expect(hashedEmail("  ")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});

describe("Meta's click id", () => {
  const seenAt = new Date("2026-11-27T09:00:00.123Z");
  it.each([
    ["an ad's fbclid", "IwAR2F4-dbP0l7Mn1IawQQ", null, "fb.1.1795770000123.IwAR2F4-dbP0l7Mn1IawQQ"],
    ["the fbclid exactly as it came (Meta's id is case sensitive)", "AbC_dEf-123", null, "fb.1.1795770000123.AbC_dEf-123"],
    ["the pixel's _fbc cookie before the query's fbclid", "other", "fb.1.1700000000000.IwAR-cookie", "fb.1.1700000000000.IwAR-cookie"],
    ["no click id", null, null, null],
    ["an fbclid of another shape", "<script>", null, null],
    ["an over-long fbclid", "a".repeat(501), null, null],
    ["a cookie of another shape, the query's fbclid", "IwAR", "fb.x.y", "fb.1.1795770000123.IwAR"],
  ])("from %s", (_case, fbclid, cookie, expected) => {
    expect(fbcOf(fbclid, cookie, seenAt)).toBe(expected);
  });
});

describe("money in major units", () => {
  it.each([
    [8_970, "EUR", 89.7],
    [12_670, "EUR", 126.7],
    [1, "GBP", 0.01],
    [49_900, "SEK", 499],
    [0, "CHF", 0],
  ])("%i minor units of %s are %d", (minor, currency, major) => {
    expect(majorUnits(minor, currency)).toBe(major);
  });
});

describe("Meta's Purchase", () => {
  it("carries the order number as its event id, the whole order's value and the hashed e-mail", () => {
    const event = metaPurchaseEvent(facts);
    expect(event).toEqual({
      event_name: "Purchase",
      event_time: 1795773600,
      event_id: "VN-2026-000123",
      action_source: "website",
      event_source_url: "https://shop.example.test/checkout/de",
      user_data: {
        em: [hashedEmail("anna.muster@example.com")],
        fbc: "fb.1.1795773600000.IwAR2F4-dbP0l7Mn1IawQQ",
        client_ip_address: "203.0.113.7",
        client_user_agent: "Mozilla/5.0 (X11; Linux x86_64)",
      },
      custom_data: { value: 126.7, currency: "EUR", order_id: "VN-2026-000123" },
    });
  });

  it.each([
    ["without a click id", { fbc: null }, "fbc"],
    ["once the address was cleared", { clientAddress: null }, "client_ip_address"],
    ["once the user agent was cleared", { clientUserAgent: null }, "client_user_agent"],
  ] as const)("leaves a parameter out %s", (_case, change, field) => {
    expect(metaPurchaseEvent({ ...facts, ...change }).user_data).not.toHaveProperty(field);
  });

  it("puts the token in the body, and a test code only when asked", () => {
    expect(metaEventsBody([metaPurchaseEvent(facts)], "token")).toEqual({ data: [metaPurchaseEvent(facts)], access_token: "token" });
    expect(metaEventsBody([], "token", "TEST1")).toMatchObject({ test_event_code: "TEST1" });
  });
});

describe("GA4's purchase and refund", () => {
  it("sends the order number as transaction id, the value, the currency and one item per line", () => {
    expect(ga4PurchaseBody(facts)).toEqual({
      client_id: "123456789.1795773600",
      timestamp_micros: 1795773600000000,
      consent: { ad_user_data: "GRANTED", ad_personalization: "GRANTED" },
      events: [
        {
          name: "purchase",
          params: {
            transaction_id: "VN-2026-000123",
            value: 126.7,
            currency: "EUR",
            items: [
              { item_id: "shape-3", item_name: "Shape", price: 89.7, quantity: 1 },
              { item_id: "ebook-1", item_name: "Recipe book", price: 19, quantity: 1 },
              { item_id: "mind-1", item_name: "Mind", price: 18, quantity: 1 },
            ],
          },
        },
      ],
    });
  });

  it("sends a full refund as refund with the transaction id, value and currency", () => {
    expect(ga4RefundBody({ orderNumber: "VN-2026-000123", currency: "GBP", refundedMinor: 4_500, gaClientId: "1.2" }).events).toEqual([
      { name: "refund", params: { transaction_id: "VN-2026-000123", value: 45, currency: "GBP" } },
    ]);
  });

  it.each([
    ["purchase", ga4PurchaseBody(facts)],
    ["refund", ga4RefundBody({ orderNumber: "VN-2026-000123", currency: "EUR", refundedMinor: 100, gaClientId: "1.2" })],
  ])("makes a %s the validation server finds nothing wrong with", (_name, body) => {
    expect(validationMessagesOf(body)).toEqual([]);
  });

  it.each([
    ["GA1.1.123456789.1795773600", "123456789.1795773600"],
    ["GA1.2.987.1700000000", "987.1700000000"],
    ["not a cookie", null],
    [null, null],
  ])("reads the client id of the _ga cookie %j", (cookie, clientId) => {
    expect(gaClientIdOf(cookie)).toBe(clientId);
  });
});

describe("what the payloads never carry", () => {
  const serialized = [JSON.stringify(metaEventsBody([metaPurchaseEvent(facts)], "token")), JSON.stringify(ga4PurchaseBody(facts))];
  it.each(["Anna.Muster@Example.COM", "anna.muster@example.com", "@", "Anna", "Muster", "Hauptstraße", "10115", "Berlin"])("%j in no payload", (personal) => {
    for (const payload of serialized) expect(payload.toLowerCase()).not.toContain(personal.toLowerCase());
  });
});
