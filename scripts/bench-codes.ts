/**
 * The checkout's server time with a discount code next to without, on a server of its own (so the
 * other measurements leave nothing in its database or its log). An owner creates the code through
 * the back office's form, as an operator would: 20 % off, no limit per customer and a total no run
 * reaches, so every request of the run is the same work. Then, one request after another and
 * alternating so that a busy machine weighs on both sides alike:
 * - the checkout's page, the form's POST that quotes again without a code (`remove-code`) and the
 *   one that applies the code (`apply-code`), every answer a whole page as without JavaScript;
 * - an order paid by test card without a code and one with the code applied (which reserves a
 *   redemption of it when the order is placed, and keeps it when the payment succeeds).
 * The time is the server's own, from arrival to the last byte sent, as its request log writes it
 * for the id each answer carries in `X-Request-Id`. The two quoting POSTs are also loaded with 10
 * connections for their requests per second. Every buyer comes from an address of its own through
 * the trusted proxy, as in the order load.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { startServer, type RunningServer } from "../tests/e2e/support/server";
import { percentile } from "./bench-back-office";
import { benchServerEnv, nextBuyerAddress } from "./bench-orders";

const checkoutPath = "/checkout/fr?bundle=shape-3";
const browserEncoding = { "Accept-Encoding": "gzip, br" };
const benchCode = { code: "BENCH20", percent: "20", maxRedemptions: "1000000" };
const operator = { email: "bench.codes@example.com", password: "bench codes owner password" };
const buyer = {
  email: "bench.buyer@example.com",
  givenName: "Camille",
  familyName: "Exemple",
  addressLine1: "12 rue de la Paix",
  postalCode: "75002",
  city: "Paris",
  country: "FR",
  method: "card",
  cardNumber: "4242424242424242",
  cardExpiry: "12/30",
  cardCvc: "123",
};

export interface CodeTimeFigures {
  request: string;
  code: "without" | "with";
  requests: number;
  /** The server's time per request, from its request log. */
  p50Ms: number;
  p99Ms: number;
  failures: number;
}

export interface CodeLoadFigures {
  request: string;
  code: "without" | "with";
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

export interface CodeCheckoutFigures {
  path: string;
  code: string;
  times: CodeTimeFigures[];
  load: CodeLoadFigures[];
}

interface Sent {
  id: string;
  ok: boolean;
}

/** A browser at the checkout: the cookie its form token is bound to, and that token. */
async function openCheckout(server: RunningServer, from: Record<string, string>, cookie = ""): Promise<{ sent: Sent; cookie: string; token: string }> {
  const shown = await fetch(server.url + checkoutPath, { headers: { ...browserEncoding, ...from, ...(cookie ? { Cookie: cookie } : {}) } });
  const html = await shown.text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  const setCookie = /vn_checkout=[^;]+/.exec(shown.headers.get("set-cookie") ?? "")?.[0];
  return { sent: { id: shown.headers.get("x-request-id") ?? "", ok: shown.status === 200 && token !== "" }, cookie: setCookie ?? cookie, token };
}

async function postCheckout(server: RunningServer, form: Record<string, string>, headers: Record<string, string>): Promise<{ response: Response; body: string; id: string }> {
  const response = await fetch(server.url + checkoutPath, { method: "POST", body: new URLSearchParams(form), headers: { ...browserEncoding, ...headers }, redirect: "manual" });
  return { response, body: await response.text(), id: response.headers.get("x-request-id") ?? "" };
}

/** The server's time per request id, from the request lines of its log. */
function loggedTimes(server: RunningServer): Map<string, number> {
  const times = new Map<string, number>();
  for (const line of server.output().split("\n")) {
    if (!line.includes('"msg":"request"')) continue;
    const entry = JSON.parse(line) as { id?: string; ms?: number };
    if (entry.id && typeof entry.ms === "number") times.set(entry.id, entry.ms);
  }
  return times;
}

/** A line is written once the answer is sent: the last ones may still be on their way through the pipe. */
async function serverTimes(server: RunningServer, ids: string[]): Promise<Map<string, number>> {
  for (let wait = 0; wait < 20; wait += 1) {
    const times = loggedTimes(server);
    if (ids.every((id) => times.has(id))) return times;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return loggedTimes(server);
}

async function figuresOf(server: RunningServer, request: string, code: CodeTimeFigures["code"], sent: Sent[]): Promise<CodeTimeFigures> {
  const times = await serverTimes(server, sent.map((one) => one.id));
  const measured = sent.flatMap((one) => (times.has(one.id) ? [times.get(one.id) as number] : [])).sort((a, b) => a - b);
  return { request, code, requests: measured.length, p50Ms: percentile(measured, 0.5), p99Ms: percentile(measured, 0.99), failures: sent.filter((one) => !one.ok || !times.has(one.id)).length };
}

/** Adds the owner to the server's database before it starts, logs in and creates the code. */
async function serverWithCode(dataDir: string): Promise<RunningServer> {
  const added = spawnSync(process.execPath, ["scripts/admin.mjs", "add-user", operator.email, "--role", "owner"], { env: { ...process.env, DATA_DIR: dataDir }, input: `${operator.password}\n`, encoding: "utf8" });
  if (added.status !== 0) throw new Error(`The benchmark's owner could not be added:\n${added.stdout}${added.stderr}`);
  const server = await startServer({ ...benchServerEnv, DATA_DIR: dataDir });
  const backOffice = { Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" };
  const login = await fetch(`${server.url}/admin/login`, { method: "POST", headers: backOffice, body: new URLSearchParams(operator), redirect: "manual" });
  const cookie = /vitanor_admin=[^;]+/.exec(login.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error(`The benchmark's owner could not log in (${login.status})`);
  // oncePerCustomer and firstOrderOnly are checkboxes: left out, the code has neither limit.
  const created = await fetch(`${server.url}/admin/codes`, { method: "POST", headers: { ...backOffice, Cookie: cookie }, body: new URLSearchParams({ ...benchCode, kind: "percent" }), redirect: "manual" });
  if (created.status !== 303) throw new Error(`The back office did not create the code ${benchCode.code} (${created.status})`);
  return server;
}

/** The page, the POST quoting without a code and the one applying the code, by turns. */
async function quoteTimes(server: RunningServer, rounds: number): Promise<CodeTimeFigures[]> {
  const { cookie, token } = await openCheckout(server, { "X-Forwarded-For": nextBuyerAddress() });
  const form = { ...buyer, bundle: "shape-3", token };
  const page: Sent[] = [];
  const plain: Sent[] = [];
  const coded: Sent[] = [];
  for (let round = 0; round < rounds; round += 1) {
    // Two posts a round from one address stay far below the checkout's rate limit.
    const from = { "X-Forwarded-For": nextBuyerAddress() };
    page.push((await openCheckout(server, from, cookie)).sent);
    const without = await postCheckout(server, { ...form, intent: "remove-code", code: "" }, { ...from, Cookie: cookie });
    plain.push({ id: without.id, ok: without.response.status === 200 && !without.body.includes('data-testid="discount-line"') });
    const withCode = await postCheckout(server, { ...form, intent: "apply-code", code: benchCode.code }, { ...from, Cookie: cookie });
    coded.push({ id: withCode.id, ok: withCode.response.status === 200 && withCode.body.includes('data-testid="discount-line"') });
  }
  return [
    await figuresOf(server, "checkout page (GET)", "without", page),
    await figuresOf(server, "checkout quote (POST remove-code)", "without", plain),
    await figuresOf(server, "checkout quote (POST apply-code)", "with", coded),
  ];
}

/** Orders paid by test card, without a code and with it, by turns; each buyer opens the page first. */
async function orderTimes(server: RunningServer, rounds: number): Promise<CodeTimeFigures[]> {
  const paid: Record<CodeTimeFigures["code"], Sent[]> = { without: [], with: [] };
  for (let round = 0; round < rounds * 2; round += 1) {
    const code = round % 2 === 0 ? "without" : "with";
    const from = { "X-Forwarded-For": nextBuyerAddress() };
    const { cookie, token } = await openCheckout(server, from);
    const placed = await postCheckout(server, { ...buyer, bundle: "shape-3", token, appliedCode: code === "with" ? benchCode.code : "" }, { ...from, Cookie: cookie });
    // A code refused on paying answers 409 with the form; only the 303 to the first upsell is an order.
    paid[code].push({ id: placed.id, ok: placed.response.status === 303 && (placed.response.headers.get("location") ?? "").startsWith("/upsell") });
  }
  return [await figuresOf(server, "order paid (POST)", "without", paid.without), await figuresOf(server, "order paid (POST)", "with", paid.with)];
}

/** The two quoting POSTs under 10 connections, each request from another address. */
async function quoteLoad(server: RunningServer, duration: number): Promise<CodeLoadFigures[]> {
  const { cookie, token } = await openCheckout(server, { "X-Forwarded-For": nextBuyerAddress() });
  const figures: CodeLoadFigures[] = [];
  const variants = [
    { request: "checkout quote (POST remove-code)", code: "without" as const, extra: { intent: "remove-code", code: "" } },
    { request: "checkout quote (POST apply-code)", code: "with" as const, extra: { intent: "apply-code", code: benchCode.code } },
  ];
  for (const variant of variants) {
    const connections = 10;
    const result = await autocannon({
      url: server.url + checkoutPath,
      connections,
      duration,
      method: "POST",
      headers: { ...browserEncoding, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...buyer, bundle: "shape-3", token, ...variant.extra }).toString(),
      requests: [{ setupRequest: (request) => ({ ...request, headers: { ...request.headers, "X-Forwarded-For": nextBuyerAddress() } }) }],
    });
    figures.push({ request: variant.request, code: variant.code, connections, requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, errors: result.errors + result.non2xx });
  }
  return figures;
}

export async function codeCheckoutTimes({ quoteRounds = 200, orderRounds = 100, loadSeconds = 5 } = {}): Promise<CodeCheckoutFigures> {
  const dataDir = await mkdtemp(join(tmpdir(), "storefront-bench-codes-"));
  try {
    const server = await serverWithCode(dataDir);
    try {
      const times = [...(await quoteTimes(server, quoteRounds)), ...(await orderTimes(server, orderRounds))];
      return { path: checkoutPath, code: `${benchCode.code} (${benchCode.percent} % off)`, times, load: await quoteLoad(server, loadSeconds) };
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Without and with the code on one line per request, for the printed table. */
export function sideBySide(figures: CodeCheckoutFigures) {
  const pairs = [
    ["checkout quote (POST remove-code)", "checkout quote (POST apply-code)"],
    ["order paid (POST)", "order paid (POST)"],
  ] as const;
  const find = (request: string, code: CodeTimeFigures["code"]) => figures.times.find((row) => row.request === request && row.code === code);
  return pairs.flatMap(([plainRequest, codedRequest]) => {
    const without = find(plainRequest, "without");
    const withCode = find(codedRequest, "with");
    if (!without || !withCode) return [];
    return [
      {
        request: plainRequest === codedRequest ? plainRequest : "checkout quote (POST)",
        "p50 ms without": without.p50Ms,
        "p50 ms with code": withCode.p50Ms,
        "p99 ms without": without.p99Ms,
        "p99 ms with code": withCode.p99Ms,
        "extra p50 ms": +(withCode.p50Ms - without.p50Ms).toFixed(1),
      },
    ];
  });
}
