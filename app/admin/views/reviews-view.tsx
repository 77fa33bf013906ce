import { reviewStatuses, type ReviewStatus } from "../../reviews/schema";
import type { Operator } from "../../operators/audit.server";
import { may } from "../operators.server";
import type { QueuePage } from "../queues.server";
import { rejectionReasons, type ModerationRow } from "../review-moderation.server";
import { formatTime, Frame, Pager, ReasonSelect, statusLabel, type Notice } from "./frame";

const tabLabels: Record<ReviewStatus, string> = { pending: "Waiting", published: "Published", rejected: "Rejected" };

function Decision({ row, back }: { row: ModerationRow; back: ReviewStatus }) {
  const action = `/admin/reviews/${row.id}`;
  return (
    <div className="stack">
      {row.status !== "published" ? (
        <form method="post" action={action}>
          <input type="hidden" name="back" value={back} />
          <input type="hidden" name="decision" value="publish" />
          <button type="submit">Publish</button>
        </form>
      ) : null}
      {row.status !== "rejected" ? (
        <form method="post" action={action} className="stack">
          <input type="hidden" name="back" value={back} />
          <input type="hidden" name="decision" value="reject" />
          <ReasonSelect label="Rule it breaks" reasons={rejectionReasons} />
          <label>
            Note (optional, internal)
            <input type="text" name="note" maxLength={500} />
          </label>
          <button type="submit" className="danger">
            Reject
          </button>
        </form>
      ) : null}
    </div>
  );
}

/**
 * Reviews by status. The buyer's words are shown as they wrote them (as text, never as markup)
 * and cannot be edited here: an operator publishes or rejects, with a reason.
 */
export function ReviewsView({ operator, status, page, notice }: { operator: Operator; status: ReviewStatus; page: QueuePage<ModerationRow>; notice?: Notice | null }) {
  return (
    <Frame operator={operator} section="reviews" title="Reviews" notice={notice}>
      <nav className="tabs" aria-label="Reviews by status">
        {reviewStatuses.map((value) => (
          <a key={value} href={`/admin/reviews?status=${value}`} aria-current={value === status ? "page" : undefined}>
            {tabLabels[value]}
          </a>
        ))}
      </nav>
      <section className="panel" aria-labelledby="reviews-list" data-testid="admin-reviews">
        <h2 id="reviews-list">
          {tabLabels[status]} ({page.total})
        </h2>
        <p className="muted">
          Publish every review that keeps to the published rules, whatever its rating; reject only for a rule it breaks, chosen beside Reject. The text cannot be changed.
        </p>
        {page.total === 0 ? (
          <p className="muted">None.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Written</th>
                <th scope="col">Product and order</th>
                <th scope="col">Review</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {page.rows.map((row) => (
                <tr key={row.id} data-testid="admin-review">
                  <td className="nowrap">{formatTime(row.createdAt)}</td>
                  <td>
                    {row.productName}
                    <br />
                    <a href={`/admin/orders/${row.orderNumber}`}>{row.orderNumber}</a>
                    {row.test ? <span className="tag-test">test</span> : null}
                  </td>
                  <td>
                    <strong>
                      {row.rating} / 5
                    </strong>{" "}
                    · {row.displayName} · <span lang={row.language}>{row.language}</span>
                    <p className="review-text" lang={row.language}>
                      {row.body}
                    </p>
                    {row.moderationReason ? (
                      <p className="muted">
                        {statusLabel(row.status)} {formatTime(row.moderatedAt)} by {row.moderatedBy}: {row.moderationReason}
                      </p>
                    ) : null}
                  </td>
                  <td>
                    {may(operator, "moderate_reviews") ? <Decision row={row} back={status} /> : <span className="muted">An owner decides.</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page.page} pages={page.pages} link={(target) => `/admin/reviews?status=${status}&page=${target}`} label="Pages of reviews" />
      </section>
    </Frame>
  );
}
