import { reachedOverHttps } from "../platform/https-request";
import { store, type Store } from "../store/store.server";
import { MessageView, notFound, type AdminRoute } from "./admin-route.server";
import { BadForm, fromOwnOrigin, htmlPage, plain, readCookie, readForm, redirect, sessionCookie, sessionCookieName, stylesheet } from "./http.server";
import { logIn, logOut, operatorForSession } from "./operators.server";
import { experimentRoutes } from "./experiment-pages.server";
import { filesRoutes } from "./files-pages.server";
import { fulfilmentRoutes } from "./fulfilment-pages.server";
import { orderRoutes } from "./order-pages.server";
import { privacyRoutes } from "./privacy-pages.server";
import { reportRoutes } from "./report-pages.server";
import { requestRoutes } from "./requests-pages.server";
import { reviewRoutes } from "./review-pages.server";
import { LoginView } from "./views/login-view";
import type { Notice } from "./views/frame";

/**
 * The back office's front door (DESIGN §13): `/admin/*` requests, as Fetch requests, answered
 * with whole server-rendered pages. Every page needs a live session; every POST must come from the
 * back office's own origin. The section handlers are thin: reads and changes live in their modules.
 */

const routes: readonly AdminRoute[] = [...orderRoutes, ...fulfilmentRoutes, ...requestRoutes, ...reviewRoutes, ...privacyRoutes, ...reportRoutes, ...experimentRoutes, ...filesRoutes];

/** Short result codes after a redirect: the notice is chosen here, never taken from the URL. */
const notices: Record<string, Notice> = {
  logged_out: { kind: "ok", text: "You are logged out." },
  session_ended: { kind: "error", text: "Your session has ended. Log in again." },
};

const isSecure = (request: Request, current: Store) => reachedOverHttps(request, current.settings.publicUrl);

/** Where to go after logging in: only a back-office path, never another site. */
function safeNext(value: string | null): string {
  return value && /^\/admin\/[A-Za-z0-9/_.\-?=&%]*$/.test(value) && !value.startsWith("//") ? value : "/admin/orders";
}

async function login(request: Request, current: Store): Promise<Response> {
  const form = await readForm(request);
  const email = (form.get("email") ?? "").slice(0, 254);
  const next = safeNext(form.get("next"));
  const result = await logIn(current.db, email, form.get("password") ?? "", { previousToken: readCookie(request, sessionCookieName) });
  if (result.kind === "signed_in") return redirect(next, { "Set-Cookie": sessionCookie(result.token, isSecure(request, current)) });
  if (result.kind === "locked") {
    const minutes = Math.max(1, Math.ceil((result.until.getTime() - Date.now()) / 60_000));
    return htmlPage(
      <LoginView email={email} next={next} notice={{ kind: "error", text: `Too many failed attempts for this address: logging in is locked for ${minutes} more minute${minutes === 1 ? "" : "s"}.` }} />,
      429,
      { "Retry-After": String(minutes * 60) },
    );
  }
  return htmlPage(<LoginView email={email} next={next} notice={{ kind: "error", text: "Wrong e-mail address or password." }} />, 401);
}

function match(method: string, pathname: string): { route: AdminRoute; params: Record<string, string> } | "wrong_method" | null {
  let wrongMethod = false;
  for (const route of routes) {
    const found = route.pattern.exec(pathname);
    if (!found) continue;
    if (route.method !== method && !(route.method === "GET" && method === "HEAD")) {
      wrongMethod = true;
      continue;
    }
    const params = Object.fromEntries((route.params ?? []).map((name, index) => [name, decodeURIComponent(found[index + 1] ?? "")]));
    return { route, params };
  }
  return wrongMethod ? "wrong_method" : null;
}

/** Answers with the server's own time in `Server-Timing` (the benchmark reads it). */
export async function handleAdminRequest(request: Request): Promise<Response> {
  const started = performance.now();
  const response = await answer(request);
  response.headers.set("Server-Timing", `app;dur=${(performance.now() - started).toFixed(1)}`);
  return response;
}

async function answer(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const current = store();
  const { pathname } = url;
  if (pathname === "/admin/admin.css") {
    return new Response(stylesheet.body, { headers: { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable" } });
  }
  if (request.method === "POST" && !fromOwnOrigin(request, current.settings.publicUrl)) {
    return htmlPage(<MessageView title="Refused" text="This form did not come from the back office, so nothing was done." />, 403);
  }
  try {
    const token = readCookie(request, sessionCookieName);
    if (pathname === "/admin/login") {
      if (request.method === "POST") return await login(request, current);
      if (await operatorForSession(current.db, token)) return redirect(safeNext(url.searchParams.get("next")));
      return htmlPage(<LoginView email="" next={safeNext(url.searchParams.get("next"))} notice={notices[url.searchParams.get("done") ?? ""] ?? null} />);
    }
    const operator = await operatorForSession(current.db, token);
    if (pathname === "/admin/logout" && request.method === "POST") {
      await logOut(current.db, token, operator);
      return redirect("/admin/login?done=logged_out", { "Set-Cookie": sessionCookie(null, isSecure(request, current)) });
    }
    if (!operator) {
      if (request.method === "POST") {
        return htmlPage(<LoginView email="" next="/admin/orders" notice={{ kind: "error", text: "Your session has ended, so nothing was done. Log in again and repeat the action." }} />, 401);
      }
      const next = `${pathname}${url.search}`;
      return redirect(`/admin/login?next=${encodeURIComponent(next)}${token ? "&done=session_ended" : ""}`);
    }
    if (pathname === "/admin" || pathname === "/admin/") return redirect("/admin/orders");
    const found = match(request.method, pathname);
    if (found === "wrong_method") return plain(405, "Method not allowed");
    if (!found) return notFound("There is no such back-office page.");
    return await found.route.handle({ request, url, params: found.params, store: current, operator });
  } catch (error) {
    if (error instanceof BadForm) return plain(400, error.message);
    throw error;
  }
}
