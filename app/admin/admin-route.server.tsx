import type { Store } from "../store/store.server";
import type { Operator } from "../operators/audit.server";
import { htmlPage } from "./http.server";
import { Document, type Notice } from "./views/frame";

/** What a back-office page handler gets: the request, its path parameters and the signed-in operator. */
export interface AdminContext {
  request: Request;
  url: URL;
  params: Record<string, string>;
  store: Store;
  operator: Operator;
}

export interface AdminRoute {
  method: "GET" | "POST";
  pattern: RegExp;
  /** Names of the pattern's groups, in order. */
  params?: readonly string[];
  handle(context: AdminContext): Promise<Response>;
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

/** The notice a redirect asked for by its short code (`?done=refunded`); unknown codes show none. */
export function noticeFrom(url: URL, notices: Record<string, Notice>): Notice | null {
  return notices[url.searchParams.get("done") ?? ""] ?? null;
}
