import type { Route } from "./+types/funnel-view";
import { countArmView } from "../experiments/routing.server";
import { receivePageView } from "../funnel/page-views.server";
import { store } from "../store/store.server";

/** The page-view beacon posts here (`app/funnel/page-view-beacon.tsx`); it gets no content back. */
export async function action({ request }: Route.ActionArgs) {
  // A view of a split test's page counts for its arm too (the arm is in the page's own address).
  const status = await receivePageView(store().db, request, new Date(), (view) => countArmView(request.headers.get("Referer"), view));
  return new Response(null, { status, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
