import type { Route } from "./+types/funnel-view";
import { receivePageView } from "../funnel/page-views.server";
import { store } from "../store/store.server";

/** The page-view beacon posts here (`app/funnel/page-view-beacon.tsx`); it gets no content back. */
export async function action({ request }: Route.ActionArgs) {
  const status = await receivePageView(store().db, request);
  return new Response(null, { status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
