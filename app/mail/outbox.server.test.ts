import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outbox } from "./schema";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import { enqueueMail, startOutboxWorker, type OutboxRow } from "./outbox.server";

describe.each(databaseKinds)("the outbox worker stopping on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("finishes the message it holds and gives the rest of its round back at once", async () => {
    const { db } = database;
    for (const n of [1, 2, 3]) await enqueueMail(db, { kind: "test", dedupeKey: `stop-${n}`, recipient: `buyer${n}@example.com`, locale: "de_DE" });
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      release = resolve;
    });
    let finishSend: () => void = () => undefined;
    const delivered: number[] = [];
    const worker = startOutboxWorker(db, async (row: OutboxRow) => {
      release();
      await new Promise<void>((resolve) => (finishSend = resolve));
      delivered.push(row.id);
      return { sent: true };
    }, 60_000);
    const round = worker.runOnce();
    await started;
    const stopping = worker.stop();
    finishSend();
    await Promise.all([round, stopping]);

    const rows = await db.select().from(outbox).orderBy(outbox.id);
    expect(delivered).toHaveLength(1);
    expect(rows.map((row) => row.status)).toEqual(["sent", "pending", "pending"]);
    for (const row of rows.slice(1)) {
      expect(row.lockedUntil).toBeNull();
      expect(row.attempts).toBe(0);
    }
    expect(await worker.runOnce()).toBe(0);
    const [first] = await db.select().from(outbox).where(eq(outbox.dedupeKey, "stop-2"));
    expect(first?.status).toBe("pending");
  });
});
