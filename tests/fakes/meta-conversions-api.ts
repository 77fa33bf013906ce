import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * TEST SUPPORT ONLY: a local stand-in for Meta's Conversions API, the events edge of a pixel
 * (`POST /{api-version}/{pixel-id}/events`). Never import it from application code.
 *
 * Written from Meta's documentation, read on 2026-11-27:
 * - Using the API: https://developers.facebook.com/documentation/ads-commerce/conversions-api/using-the-api
 *   (the edge, `data` as a JSON array, `access_token` in the query or the body, `test_event_code`)
 * - Parameters: https://developers.facebook.com/documentation/ads-commerce/conversions-api/parameters
 *   (website events need `client_user_agent`, `action_source` and `event_source_url`)
 * - Customer information parameters:
 *   https://developers.facebook.com/documentation/ads-commerce/conversions-api/parameters/customer-information-parameters
 *   (`em` and the other contact fields SHA-256 hashed, `client_ip_address`, `client_user_agent`, `fbc` not hashed)
 * - fbp and fbc: https://developers.facebook.com/docs/marketing-api/conversions-api/parameters/fbp-and-fbc/
 *   (`fb.<subdomain index>.<creation time in ms>.<fbclid>`)
 * - Server event parameters (`event_time` in seconds, at most seven days old; `action_source` values):
 *   https://developers.facebook.com/documentation/ads-commerce/conversions-api/parameters/server-event
 * - Ads Pixel Events reference (the answer `{ events_received, messages, fbtrace_id }`, `test_event_code`):
 *   https://developers.facebook.com/documentation/ads-commerce/marketing-api/reference/ads-pixel/events
 *
 * It validates what the store sends as Meta's documents describe it and refuses the rest with a
 * Graph API error (`{ error: { message, type, code, fbtrace_id } }`, status 400); a token other
 * than its own is error 190. `failNext` makes it answer 500 with a transient error, as Meta does
 * when it cannot take events for a while, to test retries.
 */

export interface MetaEventReceived {
  pixelId: string;
  apiVersion: string;
  testEventCode: string | null;
  event: Record<string, unknown>;
  /** The whole request body as it arrived, to check that it holds no plain personal data. */
  rawBody: string;
}

export interface FakeMetaConversions {
  url: string;
  /** Events taken (not those sent with a test event code). */
  readonly events: MetaEventReceived[];
  /** Events taken with a test event code (the Test events tab). */
  readonly testEvents: MetaEventReceived[];
  /** Requests refused, with Meta's message. */
  readonly refusals: string[];
  /** The next `count` requests are answered 500, taking nothing. */
  failNext(count: number): void;
  close(): Promise<void>;
}

export interface FakeMetaOptions {
  pixelId: string;
  accessToken: string;
}

const actionSources = ["email", "website", "app", "phone_call", "chat", "physical_store", "system_generated", "business_messaging", "other"];
/** The customer information parameters Meta wants hashed (SHA-256, lower-case hex). */
const hashedFields = ["em", "ph", "fn", "ln", "ge", "db", "ct", "st", "zp", "country", "external_id"];
const sha256Hex = /^[0-9a-f]{64}$/;
const fbcFormat = /^fb\.[0-2]\.\d{13}\.[A-Za-z0-9_-]+$/;
const sevenDaysSeconds = 7 * 24 * 60 * 60;

class Refusal extends Error {
  constructor(
    message: string,
    readonly code = 100,
    readonly type = "OAuthException",
  ) {
    super(message);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** One event of `data`, as the parameters reference requires it; throws Meta's message. */
function validateEvent(event: unknown, index: number, now: number): Record<string, unknown> {
  if (!isRecord(event)) throw new Refusal(`Invalid parameter: data[${index}] must be an object`);
  const at = (name: string) => `data[${index}].${name}`;
  if (typeof event.event_name !== "string" || event.event_name === "") throw new Refusal(`The parameter ${at("event_name")} is required`);
  if (!Number.isInteger(event.event_time)) throw new Refusal(`The parameter ${at("event_time")} is required and must be a Unix timestamp in seconds`);
  const time = event.event_time as number;
  if (time < now - sevenDaysSeconds) throw new Refusal(`Invalid parameter: ${at("event_time")} is more than 7 days in the past`);
  if (time > now + 60) throw new Refusal(`Invalid parameter: ${at("event_time")} is in the future`);
  if (typeof event.action_source !== "string" || !actionSources.includes(event.action_source)) throw new Refusal(`The parameter ${at("action_source")} is required and must be one of ${actionSources.join(", ")}`);
  if (event.event_id !== undefined && (typeof event.event_id !== "string" || event.event_id === "")) throw new Refusal(`Invalid parameter: ${at("event_id")} must be a non-empty string`);
  const user = event.user_data;
  if (!isRecord(user)) throw new Refusal(`The parameter ${at("user_data")} is required`);
  if (event.action_source === "website") {
    if (typeof event.event_source_url !== "string" || !/^https?:\/\//.test(event.event_source_url)) throw new Refusal(`The parameter ${at("event_source_url")} is required for website events`);
    if (typeof user.client_user_agent !== "string" || user.client_user_agent === "") throw new Refusal(`The parameter ${at("user_data.client_user_agent")} is required for website events`);
  }
  for (const field of hashedFields) {
    if (user[field] === undefined) continue;
    const values = Array.isArray(user[field]) ? (user[field] as unknown[]) : [user[field]];
    if (!values.every((value) => typeof value === "string" && sha256Hex.test(value))) throw new Refusal(`Invalid parameter: ${at(`user_data.${field}`)} must be hashed with SHA-256 (64 lower-case hex characters)`);
  }
  if (user.fbc !== undefined && (typeof user.fbc !== "string" || !fbcFormat.test(user.fbc))) throw new Refusal(`Invalid parameter: ${at("user_data.fbc")} must have the form fb.1.<creation time in ms>.<fbclid>`);
  if (user.client_ip_address !== undefined && (typeof user.client_ip_address !== "string" || isIP(user.client_ip_address) === 0)) throw new Refusal(`Invalid parameter: ${at("user_data.client_ip_address")} must be an IPv4 or IPv6 address`);
  const matchable = ["em", "ph", "external_id", "fbc", "fbp"].some((field) => user[field] !== undefined) || (user.client_ip_address !== undefined && user.client_user_agent !== undefined);
  if (!matchable) throw new Refusal(`Invalid parameter: ${at("user_data")} has no customer information parameter Meta can match`);
  const custom = event.custom_data;
  if (custom !== undefined) {
    if (!isRecord(custom)) throw new Refusal(`Invalid parameter: ${at("custom_data")} must be an object`);
    if (custom.value !== undefined && (typeof custom.value !== "number" || !Number.isFinite(custom.value))) throw new Refusal(`Invalid parameter: ${at("custom_data.value")} must be a number`);
    if (custom.currency !== undefined && (typeof custom.currency !== "string" || !/^[A-Za-z]{3}$/.test(custom.currency))) throw new Refusal(`Invalid parameter: ${at("custom_data.currency")} must be an ISO 4217 code`);
    if (event.event_name === "Purchase" && (typeof custom.value !== "number" || typeof custom.currency !== "string")) throw new Refusal(`The parameters ${at("custom_data.value")} and ${at("custom_data.currency")} are required for Purchase events`);
  } else if (event.event_name === "Purchase") {
    throw new Refusal(`The parameter ${at("custom_data")} is required for Purchase events`);
  }
  return event;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The request's parameters: a JSON body, or a form body whose `data` is a JSON-encoded string. */
function parametersOf(req: IncomingMessage, raw: string): Record<string, unknown> {
  const type = req.headers["content-type"] ?? "";
  if (type.startsWith("application/json")) {
    const body: unknown = JSON.parse(raw);
    if (!isRecord(body)) throw new Refusal("The request body must be a JSON object");
    return body;
  }
  const form = Object.fromEntries(new URLSearchParams(raw));
  return { ...form, data: form.data === undefined ? undefined : JSON.parse(form.data) };
}

export async function startFakeMetaConversions(options: FakeMetaOptions): Promise<FakeMetaConversions> {
  const events: MetaEventReceived[] = [];
  const testEvents: MetaEventReceived[] = [];
  const refusals: string[] = [];
  let failing = 0;
  const trace = () => randomBytes(8).toString("base64url");
  const answer = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? "/", "http://fake");
      const path = /^\/(v\d+\.\d+)\/([^/]+)\/events$/.exec(url.pathname);
      if (req.method !== "POST" || !path) {
        answer(res, 400, { error: { message: "Unsupported request: the fake takes POST /{api-version}/{pixel-id}/events only", type: "GraphMethodException", code: 100, fbtrace_id: trace() } });
        return;
      }
      if (failing > 0) {
        failing -= 1;
        answer(res, 500, { error: { message: "An unexpected error has occurred. Please retry your request later.", type: "OAuthException", is_transient: true, code: 2, fbtrace_id: trace() } });
        return;
      }
      try {
        const [, apiVersion = "", pixelId = ""] = path;
        const parameters = parametersOf(req, raw);
        const token = url.searchParams.get("access_token") ?? parameters.access_token;
        if (token !== options.accessToken) throw new Refusal("Invalid OAuth access token - Cannot parse access token", 190);
        if (pixelId !== options.pixelId) throw new Refusal(`Unsupported post request. Object with ID '${pixelId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, 100, "GraphMethodException");
        const data = parameters.data;
        if (!Array.isArray(data) || data.length === 0 || data.length > 1000) throw new Refusal("The parameter data is required and must hold 1 to 1000 events");
        const now = Math.floor(Date.now() / 1000);
        const validated = data.map((event, index) => validateEvent(event, index, now));
        const testEventCode = typeof parameters.test_event_code === "string" ? parameters.test_event_code : null;
        for (const event of validated) (testEventCode ? testEvents : events).push({ pixelId, apiVersion, testEventCode, event, rawBody: raw });
        answer(res, 200, { events_received: validated.length, messages: [], fbtrace_id: trace() });
      } catch (error) {
        const refusal = error instanceof Refusal ? error : new Refusal(error instanceof Error ? error.message : String(error));
        refusals.push(refusal.message);
        answer(res, 400, { error: { message: refusal.message, type: refusal.type, code: refusal.code, fbtrace_id: trace() } });
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    testEvents,
    refusals,
    failNext(count) {
      failing = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
