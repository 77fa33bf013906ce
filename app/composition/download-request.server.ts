import { handleDownload } from "../downloads/download-handler.server";
import { store } from "../store/store.server";

/**
 * `/download/<token>`, answered to the HTTP server itself rather than through the route table: the
 * server writes the file only as fast as the buyer takes it, which React Router's response writer
 * does not (it would hold a whole file in memory for a slow client).
 */
export function handleDownloadRequest(request: Request): Promise<Response> {
  const { db, files, signingKey, settings } = store();
  // One path segment is a token; anything else is no link of ours and gets the "altered" page.
  const token = new URL(request.url).pathname.slice("/download/".length);
  return handleDownload(request, token.includes("/") ? "" : token, { db, files, signingKey, reviewDelayDays: settings.reviewInvitationDelayDays });
}
