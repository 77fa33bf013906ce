import type { Route } from "./+types/download";
import { handleDownload } from "../downloads/download-handler.server";
import { store } from "../store/store.server";

/** A digital order line's file, behind its signed link. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { db, files, signingKey, settings } = store();
  return handleDownload(request, params.token, { db, files, signingKey, reviewDelayDays: settings.reviewInvitationDelayDays });
}
