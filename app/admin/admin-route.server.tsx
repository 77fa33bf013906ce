import type { Params } from "react-router";
import type { Store } from "../store/store.server";
import type { Operator } from "../operators/audit.server";
import { htmlPage, type Page } from "./http.server";
import type { Permission } from "./operators.server";
import { Document, type Notice } from "./views/frame";

/** What a back-office loader or action gets: the request, its path parameters and the signed-in operator. */
export interface AdminContext {
  request: Request;
  url: URL;
  params: Params;
  store: Store;
  operator: Operator;
}

/** A route's answer: a page of its section, or a whole response (a redirect, a file, a refusal). */
export type Answer = Page | Response;

/**
 * A back-office route: a React Router route object (`path` below `/admin`, in its path syntax) whose
 * loader answers GET and HEAD and whose action answers POST. A route with `nav` is a section's
 * entry in the navigation, shown to operators who have `nav.permission`; `upload` lets its POST
 * carry a file as large as the server's upload limit.
 */
export interface AdminRoute {
  path: string;
  loader?: (context: AdminContext) => Promise<Answer>;
  action?: (context: AdminContext) => Promise<Answer>;
  nav?: { label: string; permission: Permission };
  upload?: true;
  /** Paths are matched case-sensitively unless a route says otherwise. */
  caseSensitive?: false;
}

export function MessageView({ title, text }: { title: string; text: string }) {
  return (
    <Document title={title}>
      <main id="content" className="login">
        <h1>{title}</h1>
        <p className="notice error" role="alert">
          {text}
        </p>
        <p>
          <a href="/admin/orders">Back to the back office</a>
        </p>
      </main>
    </Document>
  );
}

/** An action the operator's role does not allow: refused, nothing changed. */
export function forbidden(text: string): Response {
  return htmlPage(<MessageView title="Refused" text={text} />, 403);
}

export function notFound(text: string): Response {
  return htmlPage(<MessageView title="Not found" text={text} />, 404);
}

export const noSuchPage = () => notFound("There is no such back-office page.");

/**
 * A path parameter of the shape its route takes (an order number, a test's key); a path with any
 * other is a page that does not exist, answered before anything is read or checked.
 */
export function param(params: Params, name: string, shape: RegExp): string {
  const value = params[name] ?? "";
  if (!shape.test(value)) throw noSuchPage();
  return value;
}

/** The notice a redirect asked for by its short code (`?done=refunded`); unknown codes show none. */
export function noticeFrom(url: URL, notices: Record<string, Notice>): Notice | null {
  return notices[url.searchParams.get("done") ?? ""] ?? null;
}
