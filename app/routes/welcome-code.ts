import type { Route } from "./+types/welcome-code";
import { answerWelcomeCodeRequest, refuseUnlessPost } from "../codes/welcome-code.server";
import { store } from "../store/store.server";

/** The claim section posts here for the visitor's own welcome code (`app/codes/welcome-code-claim.tsx`). */
export function action({ request }: Route.ActionArgs) {
  const { db, settings } = store();
  return answerWelcomeCodeRequest(db, request, settings.publicUrl, new Date());
}

export function loader() {
  return refuseUnlessPost();
}
