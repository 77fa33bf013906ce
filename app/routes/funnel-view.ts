import type { Route } from "./+types/funnel-view";
import { receiveTouchView } from "../attribution/touches.server";
import { countArmView } from "../experiments/routing.server";
import { receivePageView, utcDay } from "../funnel/page-views.server";
import { reachedOverHttps } from "../platform/https-request";
import { store } from "../store/store.server";

/** The page-view beacon posts here (`app/funnel/page-view-beacon.tsx`); it gets no content back. */
export async function action({ request }: Route.ActionArgs) {
  const { db, settings } = store();
  const now = new Date();
  let touchCookie: string | null = null;
  // A view of a split test's page counts for its arm too (the arm is in the page's own address),
  // and for its touch, which keeps the visitor's touch in a cookie once they consent (decision 45).
  const status = await receivePageView(db, request, now, async (view) => {
    await countArmView(request.headers.get("Referer"), view);
    touchCookie = await receiveTouchView(db, { ...view, day: utcDay(now) }, request.headers, reachedOverHttps(request, settings.publicUrl), settings.publicUrl);
  });
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (touchCookie) headers.set("Set-Cookie", touchCookie);
  return new Response(null, { status, headers });
}

export function loader() {
  return new Response(null, { status: 405, headers: { Allow: "POST" } });
}
