import { createStaticHandler, isRouteErrorResponse, type RouteObject } from "react-router";
import { reachedOverHttps } from "../platform/https-request";
import { store, type Store } from "../store/store.server";
import type { Operator } from "../operators/audit.server";
import { MessageView, noSuchPage, type AdminContext, type AdminRoute, type Answer } from "./admin-route.server";
import { adminRoutes } from "./routes.server";
import { fromOwnOrigin, htmlPage, plain, redirect, sessionCookieHeader, sessionTokenOf, stylesheet } from "./http.server";
import { BadForm, readForm } from "./form.server";
import { logIn, logOut, may, operatorForSession } from "./operators.server";
import { LoginView } from "./views/login-view";
import { Navigation, type Notice } from "./views/frame";

/**
 * The back office's front door (docs/decisions/0016 and 0039): `/admin/*` requests, as Fetch
 * requests, answered with whole server-rendered pages. Every page needs a live session; every POST
 * must come from the back office's own origin. Past those checks, React Router's static handler
 * matches the route list and calls the route's loader (GET, HEAD) or action (POST).
 */

/** What the loaders and actions get beside React Router's own request and params. */
type SignedIn = Pick<AdminContext, "url" | "store" | "operator">;

/** A route of the list as React Router takes it; its loader and action get the signed-in operator. */
function routeObject(route: AdminRoute): RouteObject {
  const call = (answer: (context: AdminContext) => Promise<Answer>) => (args: { request: Request; params: AdminContext["params"]; context: unknown }) =>
    answer({ ...(args.context as SignedIn), request: args.request, params: args.params });
  return {
    path: `/admin/${route.path}`,
    caseSensitive: route.caseSensitive ?? true,
    ...(route.loader ? { loader: call(route.loader) } : {}),
    ...(route.action ? { action: call(route.action) } : {}),
  };
}

// No `basename`: React Router would put it before the routes' redirects' paths a second time.
const handler = createStaticHandler(adminRoutes.map(routeObject));

/** The sections of the navigation the operator may see, from the route list. */
const navigationFor = (operator: Operator) =>
  adminRoutes.flatMap((route) => (route.nav && may(operator, route.nav.permission) ? [{ section: route.path, label: route.nav.label }] : []));

/** The paths whose POST carries a file (the server gives them its upload limit instead of a form's). */
export const backOfficeUploadPaths = adminRoutes.filter((route) => route.upload).map((route) => `/admin/${route.path}`);
/** Every path the back office answers, its pages' patterns included: the request log names requests by them. */
export const backOfficePaths = ["/admin", "/admin/admin.css", "/admin/login", "/admin/logout", ...adminRoutes.map((route) => `/admin/${route.path}`)];

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
  const result = await logIn(current.db, email, form.get("password") ?? "", { previousToken: await sessionTokenOf(request) });
  if (result.kind === "signed_in") return redirect(next, { "Set-Cookie": await sessionCookieHeader(result.token, isSecure(request, current)) });
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

/** The route's answer: a page is rendered inside the operator's navigation, a response goes as it is. */
async function routed(request: Request, signedIn: SignedIn): Promise<Response> {
  let answer: Answer;
  try {
    answer = (await handler.queryRoute(request, { requestContext: signedIn })) as Answer;
  } catch (error) {
    if (error instanceof Response) return error;
    // No route has this path (404); its route has no loader for a GET (400) or no action for a POST (405).
    if (isRouteErrorResponse(error) && error.status === 404) return noSuchPage();
    if (isRouteErrorResponse(error) && (error.status === 400 || error.status === 405)) return plain(405, "Method not allowed");
    throw error;
  }
  if (answer instanceof Response) return answer;
  return htmlPage(<Navigation.Provider value={navigationFor(signedIn.operator)}>{answer.element}</Navigation.Provider>, answer.status);
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
  // Forms post; React Router would also run an action for PUT, PATCH or DELETE, which no page sends.
  if (!["GET", "HEAD", "POST"].includes(request.method)) return plain(405, "Method not allowed");
  if (request.method === "POST" && !fromOwnOrigin(request, current.settings.publicUrl)) {
    return htmlPage(<MessageView title="Refused" text="This form did not come from the back office, so nothing was done." />, 403);
  }
  try {
    const token = await sessionTokenOf(request);
    if (pathname === "/admin/login") {
      if (request.method === "POST") return await login(request, current);
      if (await operatorForSession(current.db, token)) return redirect(safeNext(url.searchParams.get("next")));
      return htmlPage(<LoginView email="" next={safeNext(url.searchParams.get("next"))} notice={notices[url.searchParams.get("done") ?? ""] ?? null} />);
    }
    const operator = await operatorForSession(current.db, token);
    if (pathname === "/admin/logout" && request.method === "POST") {
      await logOut(current.db, token, operator);
      return redirect("/admin/login?done=logged_out", { "Set-Cookie": await sessionCookieHeader(null, isSecure(request, current)) });
    }
    if (!operator) {
      if (request.method === "POST") {
        return htmlPage(<LoginView email="" next="/admin/orders" notice={{ kind: "error", text: "Your session has ended, so nothing was done. Log in again and repeat the action." }} />, 401);
      }
      const next = `${pathname}${url.search}`;
      return redirect(`/admin/login?next=${encodeURIComponent(next)}${token !== null ? "&done=session_ended" : ""}`);
    }
    if (pathname === "/admin" || pathname === "/admin/") return redirect("/admin/orders");
    return await routed(request, { url, store: current, operator });
  } catch (error) {
    if (error instanceof BadForm) return plain(400, error.message);
    throw error;
  }
}
