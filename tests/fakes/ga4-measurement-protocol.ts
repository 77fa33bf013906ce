import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * TEST SUPPORT ONLY: a local stand-in for Google Analytics 4's Measurement Protocol: `POST
 * /mp/collect` and its validation server `POST /debug/mp/collect`. Never import it from
 * application code.
 *
 * Written from Google's documentation, read on 2026-11-27:
 * - Measurement Protocol reference: https://developers.google.com/analytics/devguides/collection/protocol/ga4/reference
 *   (query `measurement_id` and `api_secret`; body `client_id`, `events[]` of at most 25 with
 *   `name` and `params`; a 2xx answer whatever the payload; `consent.ad_user_data`)
 * - Validating events: https://developers.google.com/analytics/devguides/collection/protocol/ga4/validating-events
 *   (`/debug/mp/collect` answers `{ validationMessages: [{ fieldPath, description, validationCode }] }`;
 *   it does not check `api_secret`)
 * - Sending events: https://developers.google.com/analytics/devguides/collection/protocol/ga4/sending-events
 * - The `purchase` and `refund` events: https://developers.google.com/analytics/devguides/collection/ga4/reference/events
 *   (`transaction_id`, `value` a number, `currency` an ISO 4217 code whenever `value` is set, `items`
 *   with `item_id` or `item_name`)
 *
 * `/mp/collect` answers 204 with no body, as Google's does, for a valid and an invalid payload
 * alike; the fake keeps the valid events in `events` and the validation messages of the others in
 * `refused`, so that a test sees what Google would have dropped. A wrong `api_secret` is dropped
 * the same way. `failNext` answers 503, to test retries.
 */

export interface Ga4ValidationMessage {
  fieldPath: string;
  description: string;
  validationCode: "VALUE_INVALID" | "VALUE_REQUIRED" | "NAME_INVALID" | "NAME_RESERVED" | "VALUE_OUT_OF_BOUNDS" | "EXCEEDED_MAX_ENTITIES";
}

export interface Ga4EventReceived {
  measurementId: string;
  clientId: string;
  consent: unknown;
  name: string;
  params: Record<string, unknown>;
  rawBody: string;
}

export interface FakeGa4 {
  url: string;
  /** Events `/mp/collect` took. */
  readonly events: Ga4EventReceived[];
  /** What `/mp/collect` dropped, each payload's validation messages. */
  readonly refused: Ga4ValidationMessage[][];
  /** Payloads sent to the validation server. */
  readonly validated: unknown[];
  failNext(count: number): void;
  close(): Promise<void>;
}

export interface FakeGa4Options {
  measurementId: string;
  apiSecret: string;
}

const reservedNames = ["ad_activeview", "ad_click", "ad_exposure", "ad_query", "ad_reward", "adunit_exposure", "app_clear_data", "app_exception", "app_install", "app_remove", "app_store_refund", "app_update", "app_upgrade", "dynamic_link_app_open", "dynamic_link_app_update", "dynamic_link_first_open", "error", "firebase_campaign", "first_open", "first_visit", "in_app_purchase", "notification_dismiss", "notification_foreground", "notification_open", "notification_receive", "notification_send", "os_update", "session_start", "user_engagement"];
const eventName = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const transactionEvents = ["purchase", "refund"];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The validation server's messages for a payload; none for a valid one. */
export function validationMessagesOf(body: unknown): Ga4ValidationMessage[] {
  const messages: Ga4ValidationMessage[] = [];
  const add = (fieldPath: string, validationCode: Ga4ValidationMessage["validationCode"], description: string) => messages.push({ fieldPath, description, validationCode });
  if (!isRecord(body)) {
    add("", "VALUE_INVALID", "The payload must be a JSON object.");
    return messages;
  }
  if (typeof body.client_id !== "string" || body.client_id === "") add("client_id", "VALUE_REQUIRED", "Measurement requires a client_id.");
  if (body.timestamp_micros !== undefined && !Number.isInteger(body.timestamp_micros)) add("timestamp_micros", "VALUE_INVALID", "timestamp_micros must be a whole number of microseconds.");
  if (body.consent !== undefined) {
    const consent = body.consent;
    if (!isRecord(consent) || Object.entries(consent).some(([key, value]) => !["ad_user_data", "ad_personalization"].includes(key) || !["GRANTED", "DENIED"].includes(String(value)))) {
      add("consent", "VALUE_INVALID", "consent holds ad_user_data and ad_personalization, each GRANTED or DENIED.");
    }
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0) {
    add("events", "VALUE_REQUIRED", "Measurement requires at least one event.");
    return messages;
  }
  if (events.length > 25) add("events", "EXCEEDED_MAX_ENTITIES", "A request may hold at most 25 events.");
  events.forEach((event: unknown, index) => {
    const at = `events[${index}]`;
    if (!isRecord(event) || typeof event.name !== "string") {
      add(`${at}.name`, "VALUE_REQUIRED", `Event at index: [${index}] has no name.`);
      return;
    }
    if (!eventName.test(event.name)) add(`${at}.name`, "NAME_INVALID", `Event at index: [${index}] has invalid name [${event.name}]. Names must start with an alphabetic character.`);
    if (reservedNames.includes(event.name)) add(`${at}.name`, "NAME_RESERVED", `Event at index: [${index}] has name [${event.name}] which is reserved.`);
    const params = event.params ?? {};
    if (!isRecord(params)) {
      add(`${at}.params`, "VALUE_INVALID", "params must be an object.");
      return;
    }
    if (params.value !== undefined && (typeof params.value !== "number" || !Number.isFinite(params.value))) add(`${at}.params.value`, "VALUE_INVALID", "value must be a number.");
    if (params.value !== undefined && (typeof params.currency !== "string" || !/^[A-Z]{3}$/.test(params.currency))) add(`${at}.params.currency`, "VALUE_REQUIRED", "currency, an ISO 4217 code, is required with value.");
    if (transactionEvents.includes(event.name) && (typeof params.transaction_id !== "string" || params.transaction_id === "")) add(`${at}.params.transaction_id`, "VALUE_REQUIRED", `${event.name} requires a transaction_id.`);
    for (const [key, value] of Object.entries(params)) {
      if (typeof value === "string" && value.length > 100) add(`${at}.params.${key}`, "VALUE_OUT_OF_BOUNDS", "A parameter value may hold at most 100 characters.");
    }
    if (params.items !== undefined) {
      if (!Array.isArray(params.items)) add(`${at}.params.items`, "VALUE_INVALID", "items must be an array.");
      else
        params.items.forEach((item: unknown, itemIndex) => {
          const itemAt = `${at}.params.items[${itemIndex}]`;
          if (!isRecord(item) || (typeof item.item_id !== "string" && typeof item.item_name !== "string")) add(itemAt, "VALUE_REQUIRED", "An item needs an item_id or an item_name.");
          else {
            if (item.price !== undefined && typeof item.price !== "number") add(`${itemAt}.price`, "VALUE_INVALID", "price must be a number.");
            if (item.quantity !== undefined && !Number.isInteger(item.quantity)) add(`${itemAt}.quantity`, "VALUE_INVALID", "quantity must be a whole number.");
          }
        });
    }
  });
  return messages;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeGa4(options: FakeGa4Options): Promise<FakeGa4> {
  const events: Ga4EventReceived[] = [];
  const refused: Ga4ValidationMessage[][] = [];
  const validated: unknown[] = [];
  let failing = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? "/", "http://fake");
      if (req.method !== "POST" || (url.pathname !== "/mp/collect" && url.pathname !== "/debug/mp/collect")) {
        res.writeHead(404).end();
        return;
      }
      if (failing > 0) {
        failing -= 1;
        res.writeHead(503).end();
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      const measurementId = url.searchParams.get("measurement_id") ?? "";
      const messages = validationMessagesOf(body);
      if (measurementId !== options.measurementId) messages.push({ fieldPath: "measurement_id", description: `Unknown measurement_id [${measurementId}].`, validationCode: "VALUE_INVALID" });
      if (url.pathname === "/debug/mp/collect") {
        validated.push(body);
        res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ validationMessages: messages }));
        return;
      }
      // The collection endpoint checks the secret too, silently: a wrong one drops the events.
      if (url.searchParams.get("api_secret") !== options.apiSecret) messages.push({ fieldPath: "api_secret", description: "Wrong api_secret: the events are dropped.", validationCode: "VALUE_INVALID" });
      if (messages.length > 0) refused.push(messages);
      else if (isRecord(body) && Array.isArray(body.events)) {
        for (const event of body.events as { name: string; params?: Record<string, unknown> }[]) {
          events.push({ measurementId, clientId: String(body.client_id), consent: body.consent, name: event.name, params: event.params ?? {}, rawBody: raw });
        }
      }
      res.writeHead(204).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    events,
    refused,
    validated,
    failNext(count) {
      failing = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
