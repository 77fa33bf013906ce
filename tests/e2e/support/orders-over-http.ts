/** Orders placed the way a browser without JavaScript does: the checkout form posted over HTTP. */

export interface PlacedOrder {
  /** The order's access cookie (`vn_order=…`). */
  cookie: string;
  number: string;
}

/** `thankYou: false` leaves the order's funnel open, its upsells still on offer (and its number unread). */
export async function placeOrder(baseUrl: string, { email = "jonas@example.com", headers = {}, thankYou = true }: { email?: string; headers?: Record<string, string>; thankYou?: boolean } = {}): Promise<PlacedOrder> {
  const shown = await fetch(`${baseUrl}/checkout/de?bundle=shape-3`, { headers });
  // The form's token counts only with the cookie the page set for this browser.
  const checkoutCookie = /vn_checkout=[^;]+/.exec(shown.headers.get("set-cookie") ?? "")?.[0] ?? "";
  const page = await shown.text();
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? "";
  const form = new URLSearchParams({
    email,
    givenName: "Jonas",
    familyName: "Beispiel",
    addressLine1: "Hauptstraße 5",
    postalCode: "10115",
    city: "Berlin",
    country: "DE",
    method: "card",
    cardNumber: "4242 4242 4242 4242",
    cardExpiry: "12/30",
    cardCvc: "123",
    bundle: "shape-3",
    token,
  });
  const response = await fetch(`${baseUrl}/checkout/de?bundle=shape-3`, { method: "POST", body: form, redirect: "manual", headers: { ...headers, Cookie: [headers.Cookie, checkoutCookie].filter(Boolean).join("; ") } });
  if (response.status !== 303) throw new Error(`The checkout answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
  const cookie = /vn_order=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0] ?? "";
  if (!thankYou) return { cookie, number: "" };
  // The thank-you page ends the funnel: the confirmation goes out now.
  const thankYouPage = await (await fetch(`${baseUrl}/thankyou/de`, { headers: { ...headers, Cookie: cookie } })).text();
  const number = /data-testid="order-number">([^<]+)</.exec(thankYouPage)?.[1] ?? "";
  if (!number) throw new Error("The thank-you page shows no order number");
  return { cookie, number };
}
