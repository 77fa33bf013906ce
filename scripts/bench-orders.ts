/**
 * Orders under load: buyers who each open the checkout (for its form token) and pay by test card,
 * a fixed number at a time, as browsers would over HTTP. Reports orders per second and the
 * latency of the paying request; every order must end in the 303 to the first upsell. Each buyer
 * comes from an address of its own, told by the proxy the server is started to trust
 * (`benchServerEnv`), as real buyers do: one address posting hundreds of orders a minute is what
 * the rate limits are there to stop.
 */

/** How the benchmark's servers are started: behind a proxy on the same machine. */
export const benchServerEnv = { TRUST_PROXY: "loopback" };

let buyers = 0;

/** A different client address for each buyer (10.0.0.1, 10.0.0.2, ...). */
export function nextBuyerAddress(): string {
  buyers += 1;
  return `10.${(buyers >> 16) & 255}.${(buyers >> 8) & 255}.${buyers & 255}`;
}
const buyer = {
  email: "bench.buyer@example.com",
  givenName: "Lena",
  familyName: "Beispiel",
  addressLine1: "Hauptstraße 5",
  postalCode: "10115",
  city: "Berlin",
  country: "DE",
  method: "card",
  cardNumber: "4242424242424242",
  cardExpiry: "12/30",
  cardCvc: "123",
};

export interface OrderLoadFigures {
  orders: number;
  concurrency: number;
  ordersPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

function percentile(sorted: number[], share: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN);
}

async function buyOnce(baseUrl: string, bundle: string): Promise<{ ok: boolean; payMs: number; cookie: string; from: Record<string, string> }> {
  const checkout = `${baseUrl}/checkout/de?bundle=${bundle}`;
  const from = { "X-Forwarded-For": nextBuyerAddress() };
  const shown = await fetch(checkout, { headers: { "Accept-Encoding": "gzip, br", ...from } });
  // The form's token counts only with the cookie the page set for this browser.
  const checkoutCookie = /vn_checkout=[^;]+/.exec(shown.headers.get("set-cookie") ?? "")?.[0] ?? "";
  const html = await shown.text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const started = performance.now();
  const response = await fetch(checkout, {
    method: "POST",
    body: new URLSearchParams({ ...buyer, bundle, token }),
    headers: { ...from, Cookie: checkoutCookie },
    redirect: "manual",
  });
  await response.arrayBuffer();
  const cookie = /vn_order=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0] ?? "";
  return { ok: response.status === 303 && (response.headers.get("location") ?? "").startsWith("/upsell"), payMs: performance.now() - started, cookie, from };
}

export async function orderLoad(baseUrl: string, orders = 300, concurrency = 10, bundle = "shape-1"): Promise<OrderLoadFigures> {
  const latencies: number[] = [];
  let failures = 0;
  let started = 0;
  const begin = performance.now();
  const worker = async () => {
    while (started < orders) {
      started += 1;
      const result = await buyOnce(baseUrl, bundle);
      latencies.push(result.payMs);
      if (!result.ok) failures += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - begin) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return { orders, concurrency, ordersPerSecond: +(orders / seconds).toFixed(1), p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), failures };
}

export interface UpsellAcceptFigures {
  accepts: number;
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

/**
 * Upsell acceptance as a buyer's click costs it: the POST that charges the saved card and adds
 * the line, then the next page it leads to, one buyer after another (each with a fresh order).
 */
export async function upsellAcceptTimes(baseUrl: string, accepts = 50): Promise<UpsellAcceptFigures> {
  const times: number[] = [];
  let failures = 0;
  for (let i = 0; i < accepts; i++) {
    const { cookie, from } = await buyOnce(baseUrl, "shape-1");
    const started = performance.now();
    const accepted = await fetch(`${baseUrl}/upsell/de`, {
      method: "POST",
      body: new URLSearchParams({ intent: "accept", digitalConsent: "yes" }),
      headers: { Cookie: cookie, ...from },
      redirect: "manual",
    });
    await accepted.arrayBuffer();
    const next = accepted.headers.get("location") ?? "";
    const page = await fetch(`${baseUrl}${next}`, { headers: { Cookie: cookie, "Accept-Encoding": "gzip, br", ...from } });
    await page.arrayBuffer();
    times.push(performance.now() - started);
    if (accepted.status !== 303 || !next.startsWith("/upsellMind") || page.status !== 200) failures += 1;
  }
  const sorted = times.sort((a, b) => a - b);
  return { accepts, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), failures };
}
