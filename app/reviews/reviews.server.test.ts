import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/database.server";
import { auditLog } from "../operators/schema";
import { outbox } from "../mail/schema";
import { reviewInvitations, reviews } from "./schema";
import { markFulfilled } from "../test-support/fulfilment";
import { downloadDigitalItems } from "../test-support/digital-files";
import { moderateReview } from "../admin/review-moderation.server";
import { marketFor } from "../market/markets";
import { paidTestOrder, testOperator } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import type { Operator } from "../operators/audit.server";
import { invitationIdOf, invitationToken, reviewLinkDays } from "./invitations.server";
import { productReviewsData, ratingSummariesData } from "./review-section.server";
import { displayNameOf, invitationState, publishedReviews, ratingSummaries, submitReview } from "./reviews.server";
import { cleanReviewBody, validateReview } from "./review-validation";
import { postReview } from "./review-page.server";

const key = "test-signing-key";
const dayMs = 24 * 60 * 60 * 1000;

describe("review links", () => {
  const id = "0b9f2a52-7d1e-4c1a-9d55-3f1e2a6b7c8d";
  const token = invitationToken(key, id);

  it.each([
    ["the link as sent", token, id],
    ["with spaces around it", ` ${token} `, id],
    ["signed with another key", invitationToken("another key", id), null],
    ["another invitation's id with this signature", `${id.replace("0b9f", "1b9f")}.${token.split(".")[1]}`, null],
    ["cut short", token.slice(0, -3), null],
    ["a character changed", `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`, null],
    ["empty", "", null],
    ["markup", "<script>alert(1)</script>", null],
  ])("%s", (_, given, expected) => {
    expect(invitationIdOf(key, given)).toBe(expected);
  });
});

describe("display names", () => {
  it.each([
    ["Anna", "Muster", "Anna M."],
    ["  Jean Pierre ", "dupont", "Jean D."],
    ["Åsa", "Öberg", "Åsa Ö."],
    ["Zoë", "", "Zoë"],
  ])("%s %s is shown as %s", (given, family, shown) => {
    expect(displayNameOf(given, family)).toBe(shown);
  });
});

describe("review form rules", () => {
  it.each([
    [{ rating: "5", body: "Sehr gut verträglich." }, {}],
    [{ rating: "1", body: "Hat mir nicht geschmeckt." }, {}],
    [{ rating: "0", body: "Text" }, { rating: true }],
    [{ rating: "6", body: "Text" }, { rating: true }],
    [{ rating: "", body: "Text" }, { rating: true }],
    [{ rating: "4", body: "" }, { body: true }],
    [{ rating: "4", body: "   \n\t " }, { body: true }],
    [{ rating: "4", body: "x".repeat(2000) }, {}],
    [{ rating: "4", body: "x".repeat(2001) }, { body: true }],
    [{ rating: "4", body: "😀".repeat(2000) }, {}],
  ])("%j gives %j", (values, errors) => {
    expect(validateReview(values)).toEqual(errors);
  });
});

describe.each(databaseKinds)("verified-buyer reviews on %s", (kind) => {
  const database = useTestDatabase(kind);
  let db: Database;
  let operator: Operator;
  beforeAll(async () => {
    db = database.db;
    operator = await testOperator(db, "owner");
  });

  /** A paid order with Shape and the recipe ebook, fulfilled, with its invitations. */
  async function invitedOrder(options: { test?: boolean } = {}) {
    const { order, lines } = await paidTestOrder(db, { upsells: ["ebook-1"], test: options.test ?? true });
    const result = await markFulfilled(db, operator, [order.id], { reviewDelayDays: 7 });
    expect(result.fulfilled).toEqual([order.number]);
    // A digital item is invited only after its first download.
    expect((await db.select().from(reviewInvitations).where(eq(reviewInvitations.orderId, order.id))).map((row) => row.productId)).toEqual(["shape"]);
    await downloadDigitalItems(db, order, { reviewDelayDays: 0 });
    const invitations = await db.select().from(reviewInvitations).where(eq(reviewInvitations.orderId, order.id));
    const byProduct = new Map(invitations.map((invitation) => [invitation.productId, invitation]));
    return { order, lines, invitations, token: (productId: string) => invitationToken(key, byProduct.get(productId)?.id ?? "") };
  }

  it("invites a review of the digital item after its first download and of the physical ones some days after fulfilment, one e-mail each", async () => {
    const before = Date.now();
    const { order, invitations } = await invitedOrder();
    expect(invitations.map((row) => row.productId).sort()).toEqual(["ebook", "shape"]);
    const mails = await db.select().from(outbox).where(and(eq(outbox.orderId, order.id), eq(outbox.kind, "review-invitation")));
    const digital = mails.find((mail) => mail.dedupeKey.includes(":digital:"));
    const physical = mails.find((mail) => mail.dedupeKey.endsWith(":supplement"));
    expect(mails).toHaveLength(2);
    expect(digital?.sendAfter.getTime()).toBeLessThanOrEqual(Date.now());
    expect(physical?.sendAfter.getTime()).toBeGreaterThanOrEqual(before + 7 * dayMs);
    const shape = invitations.find((row) => row.productId === "shape");
    expect(shape?.expiresAt.getTime()).toBeGreaterThanOrEqual(before + (7 + reviewLinkDays) * dayMs);
    // Marking it again changes nothing.
    await markFulfilled(db, operator, [order.id]);
    expect(await db.select().from(reviewInvitations).where(eq(reviewInvitations.orderId, order.id))).toHaveLength(2);
  });

  it("stores a review once: the link is then used, and an altered, unknown or expired link stores nothing", async () => {
    const { order, token, invitations } = await invitedOrder();
    const review = { rating: 4, body: "Gut verträglich <b>und</b> einfach einzunehmen." };
    expect((await invitationState(db, key, token("shape"))).kind).toBe("open");
    const stored = await submitReview(db, key, token("shape"), review);
    expect(stored.kind).toBe("stored");
    expect((await submitReview(db, key, token("shape"), review)).kind).toBe("used");
    expect((await submitReview(db, key, `${token("shape")}x`, review)).kind).toBe("invalid");
    expect((await submitReview(db, key, invitationToken("other key", invitations[0]?.id ?? ""), review)).kind).toBe("invalid");
    const later = new Date(Date.now() + (7 + reviewLinkDays + 1) * dayMs);
    expect((await submitReview(db, key, token("ebook"), review, later)).kind).toBe("expired");

    const rows = await db.select().from(reviews).where(eq(reviews.orderId, order.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ productId: "shape", rating: 4, body: review.body, displayName: "Anna M.", language: "de", status: "pending", test: true });
  });

  it("answers a stored review with an explicit 200, which outranks the 410 of the now used link the page loads after it", async () => {
    const { token } = await invitedOrder();
    const form = new URLSearchParams({ invitation: token("shape"), rating: "5", body: "Sehr gut." });
    const request = new Request("http://shop/review/de", { method: "POST", body: form, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    const answer = await postReview(request, marketFor("DE"), { db, signingKey: key });
    expect(answer.data.ok).toBe(true);
    expect(answer.init?.status).toBe(200);
    const again = await postReview(new Request(request.url, { method: "POST", body: form, headers: request.headers }), marketFor("DE"), { db, signingKey: key });
    expect(again.init?.status).toBe(410);
  });

  it("stores one review when the same link is sent twice at once", async () => {
    const { order, token } = await invitedOrder();
    const outcomes = await Promise.all([1, 2, 3].map((n) => submitReview(db, key, token("ebook"), { rating: n, body: `Versuch ${n}` })));
    expect(outcomes.filter((outcome) => outcome.kind === "stored")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === "used")).toHaveLength(2);
    expect(await db.select().from(reviews).where(eq(reviews.orderId, order.id))).toHaveLength(1);
  });

  it("shows a review once published, negative ones too, with the average and count, per language and mode, and hides it once rejected", async () => {
    const language = `x${kind.slice(0, 1)}`;
    const first = await invitedOrder();
    const second = await invitedOrder();
    const live = await invitedOrder({ test: false });
    const ids: string[] = [];
    for (const [order, rating] of [
      [first, 5],
      [second, 2],
      [live, 4],
    ] as const) {
      const stored = await submitReview(db, key, order.token("shape"), { rating, body: `Bewertung mit ${rating} Sternen` });
      if (stored.kind !== "stored") throw new Error(`expected a stored review, got ${stored.kind}`);
      ids.push(stored.reviewId);
      // Each test of this file uses a language of its own so that the averages are its own.
      await db.update(reviews).set({ language }).where(eq(reviews.id, stored.reviewId));
    }
    expect(await publishedReviews(db, "shape", language, true)).toEqual([]);
    for (const id of ids) expect(await moderateReview(db, operator, id, { kind: "publish" })).toEqual({ kind: "published" });
    expect((await publishedReviews(db, "shape", language, true)).map((review) => review.rating).sort()).toEqual([2, 4, 5]);
    expect(await ratingSummaries(db, language, true)).toEqual([{ productId: "shape", average: 11 / 3, count: 3 }]);
    // A live store leaves the test orders' reviews out.
    expect(await ratingSummaries(db, language, false)).toEqual([{ productId: "shape", average: 4, count: 1 }]);

    expect(await moderateReview(db, operator, ids[1] ?? "", { kind: "reject", reason: "personal_data", note: "Telefonnummer im Text" })).toEqual({ kind: "rejected" });
    expect(await moderateReview(db, operator, ids[1] ?? "", { kind: "reject", reason: "personal_data", note: "" })).toEqual({ kind: "unchanged" });
    expect(await ratingSummaries(db, language, true)).toEqual([{ productId: "shape", average: 4.5, count: 2 }]);
    const [rejected] = await db.select().from(reviews).where(eq(reviews.id, ids[1] ?? ""));
    expect(rejected).toMatchObject({ status: "rejected", moderationReason: "Contains personal data — Telefonnummer im Text", moderatedBy: operator.email, body: "Bewertung mit 2 Sternen" });
    const audit = await db.select().from(auditLog).where(eq(auditLog.orderId, second.order.id));
    expect(audit.map((row) => row.action)).toEqual(expect.arrayContaining(["review_published", "review_rejected"]));
  });

  it.each([
    ["an unknown review", "0b9f2a52-7d1e-4c1a-9d55-3f1e2a6b7c8d", { kind: "publish" } as const, "not_found"],
    ["a review id that is no id", "1; drop table reviews", { kind: "publish" } as const, "not_found"],
  ])("refuses to moderate %s", async (_, id, decision, reason) => {
    expect(await moderateReview(db, operator, id, decision)).toEqual({ kind: "refused", reason });
  });

  it("lets only an owner publish or reject: a support operator is refused and nothing changes", async () => {
    const support = await testOperator(db, "support");
    const { token } = await invitedOrder();
    const stored = await submitReview(db, key, token("shape"), { rating: 5, body: "Prima." });
    if (stored.kind !== "stored") throw new Error("expected a stored review");
    expect(await moderateReview(db, support, stored.reviewId, { kind: "publish" })).toEqual({ kind: "refused", reason: "not_allowed" });
    expect(await moderateReview(db, support, stored.reviewId, { kind: "reject", reason: "personal_data", note: "" })).toEqual({ kind: "refused", reason: "not_allowed" });
    const [row] = await db.select().from(reviews).where(eq(reviews.id, stored.reviewId));
    expect(row).toMatchObject({ status: "pending", moderatedBy: null });
  });

  it("refuses a rejection without a rule of the policy", async () => {
    const { token } = await invitedOrder();
    const stored = await submitReview(db, key, token("shape"), { rating: 1, body: "Nicht mein Fall." });
    if (stored.kind !== "stored") throw new Error("expected a stored review");
    expect(await moderateReview(db, operator, stored.reviewId, { kind: "reject", reason: "low_rating", note: "" })).toEqual({ kind: "refused", reason: "no_reason" });
    expect(await moderateReview(db, operator, stored.reviewId, { kind: "reject", reason: "", note: "no" })).toEqual({ kind: "refused", reason: "no_reason" });
    const [row] = await db.select().from(reviews).where(eq(reviews.id, stored.reviewId));
    expect(row?.status).toBe("pending");
  });

  it("formats the section and the summaries for a market, and none for a product without reviews", async () => {
    const { token } = await invitedOrder();
    const stored = await submitReview(db, key, token("ebook"), { rating: 3, body: "Schöne Rezepte,\naber wenige vegane." });
    if (stored.kind !== "stored") throw new Error("expected a stored review");
    await moderateReview(db, operator, stored.reviewId, { kind: "publish" });
    const market = marketFor("AT");
    const section = await productReviewsData(db, market, "ebook", true);
    expect(section?.title).toBe("Bewertungen verifizierter Käufer");
    expect(section?.reviews.find((review) => review.id === stored.reviewId)).toMatchObject({
      body: "Schöne Rezepte,\naber wenige vegane.",
      name: "Anna M.",
      verified: "Verifizierter Kauf",
      stars: "3 von 5 Sternen",
    });
    expect(section?.policyLink.href).toBe("/review-policy/at");
    expect(await productReviewsData(db, market, "salt", true)).toBeNull();
    expect(await productReviewsData(db, marketFor("FR"), "ebook", true)).toBeNull();
    const summaries = await ratingSummariesData(db, market, true);
    expect(summaries.products.ebook?.label).toMatch(/^\d,\d von 5 aus \d+ verifizierten Bewertung(en)?$/);
  });
});

describe("review texts as stored", () => {
  it.each([
    ["  Gut.  ", "Gut."],
    ["Zeile eins\r\nZeile zwei\rZeile drei", "Zeile eins\nZeile zwei\nZeile drei"],
    ["Null\u0000byte und\u0007 Glocke\u001B", "Nullbyte und Glocke"],
    ["Tab\tweg", "Tab weg"],
    ["<script>alert(1)</script>", "<script>alert(1)</script>"],
  ])("%j is stored as %j", (given, stored) => {
    expect(cleanReviewBody(given)).toBe(stored);
  });
});
