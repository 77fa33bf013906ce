import type { Database } from "../db/database.server";
import { issueWelcomeCode } from "./codes.server";
import type { IssuedWelcomeCode } from "./welcome-code-request";

const noStore = { "Cache-Control": "no-store" };

/**
 * A post from one of the store's own pages: its `Origin` is the address the browser reached this
 * server by, or the store's public address. Another site's page (or a client sending no Origin,
 * which no browser's fetch does) could otherwise collect codes through visitors' browsers.
 */
export function fromStorePage(request: Request, publicUrl: string): boolean {
  const site = request.headers.get("Sec-Fetch-Site");
  if (site !== null && site !== "same-origin") return false;
  const origin = request.headers.get("Origin");
  if (!origin || origin === "null") return false;
  return origin === new URL(request.url).origin || origin === new URL(publicUrl).origin;
}

/**
 * Issues the visitor's welcome code (`POST /welcome-code`, decision 44): 403 for another
 * site's post. The rate
 * limit per address is the server's (`welcomeCode` in `server/limits.ts`). The code goes to the
 * visitor alone: it is not logged, and no cache may keep the answer.
 */
export async function answerWelcomeCodeRequest(db: Database, request: Request, publicUrl: string, now: Date): Promise<Response> {
  if (request.method !== "POST") return refuseUnlessPost();
  if (!fromStorePage(request, publicUrl)) return new Response(null, { status: 403, headers: noStore });
  const { code, validUntil } = await issueWelcomeCode(db, now);
  const issued: IssuedWelcomeCode = { code, validUntil: validUntil.toISOString() };
  return Response.json(issued, { headers: noStore });
}

/** A GET (or HEAD) issues nothing: a link, a prefetch or a crawler must not take codes. */
export function refuseUnlessPost(): Response {
  return new Response(null, { status: 405, headers: { Allow: "POST", ...noStore } });
}
