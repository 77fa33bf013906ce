import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Database } from "../db/database.server";
import { feedback } from "./schema";
import { outbox } from "../mail/schema";
import { composeMail } from "../emails/compose.server";
import { formMailsPerRecipientPerDay } from "../mail/recipient-allowance.server";
import { receiveWithdrawal } from "./withdrawal.server";
import { paidTestOrder } from "../test-support/back-office";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { storeFeedback, storeRefundRequest } from "./submissions.server";

const origin = { locale: "de_DE", market: "DE" };
const context = {
  from: "Store <shop@example.com>",
  publicUrl: "https://shop.example",
  signingKey: "test-signing-key",
};
/** What a phisher types into a free-text field, hoping the store sends it on in its own name. */
const lure = "Your account is locked: sign in again at https://evil.example/login";

/** The texts of the messages queued for an address, as they would be sent. */
async function mailsTo(db: Database, recipient: string): Promise<{ kind: string; text: string }[]> {
  const rows = await db.select().from(outbox).where(eq(outbox.recipient, recipient));
  return Promise.all(
    rows.map(async (row) => {
      const mail = await composeMail(row, { ...context, db });
      return {
        kind: row.kind,
        text: `${mail?.subject ?? ""}\n${mail?.text ?? ""}\n${mail?.html ?? ""}`,
      };
    }),
  );
}

const stranger = () => `someone-${randomUUID().slice(0, 8)}@example.org`;

describe.each(databaseKinds)("form e-mails on %s", (kind) => {
  const database = useTestDatabase(kind);

  it.each([
    ["feedback", (db: Database, email: string) => storeFeedback(db, { rating: "5", comment: lure, email }, origin)],
    [
      "a refund request that matches no order",
      (db: Database, email: string) =>
        storeRefundRequest(
          db,
          {
            orderNumber: "VN-2222-3333",
            email,
            reason: "other",
            message: lure,
          },
          origin,
        ),
    ],
    [
      "a withdrawal that matches no order",
      (db: Database, email: string) =>
        receiveWithdrawal(db, {
          name: lure,
          orderNumber: "VN-2222-3333",
          email,
          ...origin,
        }),
    ],
  ])("acknowledges %s to the typed address without the visitor's words", async (_, send) => {
    const email = stranger();
    await send(database.db, email);
    const mails = await mailsTo(database.db, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).not.toContain("evil.example");
    expect(mails[0]?.text).not.toContain("sign in again");
  });

  it("sends a matched refund request's and withdrawal's receipt, with what was written, to the order's own address", async () => {
    const { order } = await paidTestOrder(database.db);
    await storeRefundRequest(
      database.db,
      {
        orderNumber: order.number,
        email: order.email.toUpperCase(),
        reason: "damaged",
        message: "Die Dose kam zerbrochen an.",
      },
      origin,
    );
    await receiveWithdrawal(database.db, {
      name: "Anna Muster",
      orderNumber: order.number,
      email: ` ${order.email.toUpperCase()}`,
      ...origin,
    });
    const mails = (await mailsTo(database.db, order.email)).filter((mail) => mail.kind !== "order-confirmation");
    expect(mails.map((mail) => mail.kind).sort()).toEqual(["refund-request", "withdrawal"]);
    expect(mails.find((mail) => mail.kind === "refund-request")?.text).toContain("Die Dose kam zerbrochen an.");
    expect(mails.find((mail) => mail.kind === "withdrawal")?.text).toContain("Anna Muster");
  });

  it("keeps the withdrawal receipt the law asks for: reference, date and time of receipt, the declaration", async () => {
    const email = stranger();
    const { reference } = await receiveWithdrawal(database.db, {
      name: "Eva",
      orderNumber: "VN-2222-3333",
      email,
      ...origin,
    });
    const [mail] = await mailsTo(database.db, email);
    expect(mail?.text).toContain(reference);
    expect(mail?.text).toContain("Eingegangen am");
    expect(mail?.text).toContain("VN-2222-3333");
  });

  it(`sends at most ${formMailsPerRecipientPerDay} form e-mails a day to one address, however it is written, and still stores every form`, async () => {
    const email = stranger();
    const spellings = Array.from({ length: formMailsPerRecipientPerDay + 3 }, (_, index) => (index % 2 === 0 ? email : ` ${email.toUpperCase()}`));
    await Promise.all(spellings.map((typed) => storeFeedback(database.db, { rating: "4", comment: "", email: typed }, origin)));
    const queued = await database.db
      .select()
      .from(outbox)
      .where(inArray(outbox.recipient, [...new Set(spellings.map((typed) => typed.trim()))]));
    expect(queued).toHaveLength(formMailsPerRecipientPerDay);
    const stored = await database.db
      .select()
      .from(feedback)
      .where(inArray(feedback.email, [...new Set(spellings.map((typed) => typed.trim()))]));
    expect(stored).toHaveLength(spellings.length);
  });
});
