import type { Route } from "./+types/webhooks";
import { receiveWebhook } from "../orders/payment-webhooks.server";
import { store } from "../store/store.server";

/** Providers post their events here (`/webhooks/<provider id>`); the raw body is what is signed. */
export async function action({ request, params }: Route.ActionArgs) {
  const rawBody = await request.text();
  if (rawBody.length > 256 * 1024) return new Response(null, { status: 413 });
  const status = await receiveWebhook(store().db, store().providers.get(params.provider), request.headers, rawBody);
  return new Response(null, { status });
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
