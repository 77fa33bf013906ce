import type { LineLink } from "../../downloads/links.server";
import type { OrderDetail } from "../order-queries.server";
import { formatTime } from "./frame";

const stateLabels = { ok: "works", expired: "expired", used_up: "used up", revoked: "revoked (refunded, cancelled or erased)" } as const;

/**
 * An order's download links: what each allows and how much of it is used, and the form that sends
 * the download e-mail again with fresh limits (the same links, counted anew).
 */
export function DownloadsPanel({ detail, links, canResend, requestId }: { detail: OrderDetail; links: readonly LineLink[]; canResend: boolean; requestId: string }) {
  const { order, lines } = detail;
  if (!lines.some((line) => line.kind === "digital")) return null;
  return (
    <section className="panel" aria-labelledby="downloads">
      <h2 id="downloads">Downloads</h2>
      {links.length === 0 ? (
        <p className="muted">No download link issued yet: the thank-you page or the confirmation e-mail issues them.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Downloads</th>
              <th scope="col">Valid until</th>
              <th scope="col">First download</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {links.map(({ line, link, state }) => (
              <tr key={link.id} data-testid="admin-download-link" data-state={state}>
                <td>{line.productName}</td>
                <td>
                  {link.downloadCount} of {link.maxDownloads}
                </td>
                <td>{formatTime(link.expiresAt)}</td>
                <td>{link.firstDownloadAt ? formatTime(link.firstDownloadAt) : "—"}</td>
                <td>{stateLabels[state]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {canResend ? (
        <form method="post" action={`/admin/orders/${order.number}/download-links`}>
          <input type="hidden" name="requestId" value={requestId} />
          <p className="muted">The buyer gets the links again by e-mail, each counted afresh from today. Refunded items get none.</p>
          <button type="submit" data-testid="admin-resend-downloads">
            Send download e-mail again
          </button>
        </form>
      ) : null}
    </section>
  );
}
