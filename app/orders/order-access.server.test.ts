import { describe, expect, it } from "vitest";
import { createOrderCookie, orderCookieHeader, orderIdFromRequest } from "./order-access.server";

const orderId = "0b6f3c1e-8a4d-4f5e-9c2b-1d7a6e5f4c3b";

describe("the order cookie", () => {
  it.each([
    ["https://shop.example/checkout/fr", "", true],
    ["http://shop.example/checkout/fr", "https://shop.example", true],
    ["http://shop.example/checkout/fr", "", false],
    ["http://localhost:3000/checkout/de", "http://localhost:3000", false],
  ])("for a request to %s (PUBLIC_URL %j) is Secure: %s", async (url, publicUrl, secure) => {
    const cookie = createOrderCookie("k".repeat(32));
    const header = await orderCookieHeader(cookie, orderId, new Request(url), publicUrl);
    expect(header.split(";").map((part) => part.trim()).includes("Secure")).toBe(secure);
    expect(header).toMatch(/HttpOnly/);
    expect(await orderIdFromRequest(cookie, header.split(";")[0] ?? "")).toBe(orderId);
  });
});
