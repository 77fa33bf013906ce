import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, operatorSessions } from "../operators/schema";
import { databaseKinds, useTestDatabase } from "../test-support/databases";
import type { Operator } from "../operators/audit.server";
import {
  addOperator,
  logIn,
  loginDelayMs,
  logOut,
  may,
  operatorCount,
  operatorForSession,
  sessionIdleMs,
  sessionMaxMs,
  throttle,
  type Permission,
} from "./operators.server";

const password = "correct horse battery";
const noWait = async () => undefined;

describe("login delays", () => {
  it.each([
    [0, 0],
    [2, 0],
    [3, 1000],
    [4, 2000],
    [5, 4000],
    [6, 8000],
    [9, 8000],
  ])("after %i failures the answer waits %i ms", (failures, ms) => {
    expect(loginDelayMs(failures)).toBe(ms);
  });
});

describe("roles", () => {
  const support: Operator = { id: "s", email: "s@example.com", role: "support" };
  const owner: Operator = { id: "o", email: "o@example.com", role: "owner" };
  it.each<[Permission, boolean, boolean]>([
    ["view", true, true],
    ["fulfil", true, true],
    ["handle_requests", true, true],
    ["export_data", true, true],
    ["refund", false, true],
    ["erase", false, true],
    ["moderate_reviews", false, true],
    ["run_experiments", false, true],
    ["manage_codes", false, true],
  ])("%s: support %s, owner %s", (permission, bySupport, byOwner) => {
    expect(may(support, permission)).toBe(bySupport);
    expect(may(owner, permission)).toBe(byOwner);
  });
});

describe.each(databaseKinds)("operators on %s", (kind) => {
  const database = useTestDatabase(kind);

  it("adds operators with an Argon2id hash and refuses bad or duplicate input", { timeout: 30_000 }, async () => {
    expect(await operatorCount(database.db)).toBe(0);
    const added = await addOperator(database.db, { email: " Owner@Example.com ", role: "owner", password });
    expect(added.kind).toBe("added");
    if (added.kind === "added") expect(added.operator.email).toBe("owner@example.com");
    const refusals = await Promise.all([
      addOperator(database.db, { email: "owner@example.com", role: "support", password }),
      addOperator(database.db, { email: "not-an-address", role: "support", password }),
      addOperator(database.db, { email: "x@example.com", role: "admin", password }),
      addOperator(database.db, { email: "y@example.com", role: "support", password: "short" }),
    ]);
    expect(refusals.map((result) => result.kind)).toEqual(["refused", "refused", "refused", "refused"]);
    expect(await operatorCount(database.db)).toBe(1);
  });

  it("signs in with a new session id each time, keeps it alive while used, ends it at logout", { timeout: 30_000 }, async () => {
    await addOperator(database.db, { email: "support@example.com", role: "support", password });
    const now = new Date("2026-11-23T09:00:00Z");
    const first = await logIn(database.db, "SUPPORT@example.com", password, { now, wait: noWait });
    expect(first.kind).toBe("signed_in");
    if (first.kind !== "signed_in") return;
    expect(await operatorForSession(database.db, first.token, now)).toMatchObject({ email: "support@example.com", role: "support" });

    const second = await logIn(database.db, "support@example.com", password, { now, wait: noWait, previousToken: first.token });
    if (second.kind !== "signed_in") throw new Error("expected a second login");
    expect(second.token).not.toBe(first.token);
    expect(await operatorForSession(database.db, first.token, now)).toBeNull();

    // Used every hour, it lives until its maximum age; unused for the idle time, it ends.
    for (let hour = 1; hour < sessionMaxMs / 3_600_000; hour += 1) {
      expect(await operatorForSession(database.db, second.token, new Date(now.getTime() + hour * 3_600_000)), `hour ${hour}`).not.toBeNull();
    }
    expect(await operatorForSession(database.db, second.token, new Date(now.getTime() + sessionMaxMs + 1))).toBeNull();

    const third = await logIn(database.db, "support@example.com", password, { now, wait: noWait });
    if (third.kind !== "signed_in") throw new Error("expected a third login");
    expect(await operatorForSession(database.db, third.token, new Date(now.getTime() + sessionIdleMs + 1000))).toBeNull();

    const fourth = await logIn(database.db, "support@example.com", password, { now, wait: noWait });
    if (fourth.kind !== "signed_in") throw new Error("expected a fourth login");
    await logOut(database.db, fourth.token, fourth.operator);
    expect(await operatorForSession(database.db, fourth.token, now)).toBeNull();
    expect(await operatorForSession(database.db, "forged-token", now)).toBeNull();
    expect(await operatorForSession(database.db, null, now)).toBeNull();

    const actions = (await database.db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.operatorEmail, "support@example.com"))).map((row) => row.action);
    expect(actions.filter((action) => action === "logged_in")).toHaveLength(4);
    expect(actions).toContain("logged_out");
    const expired = await database.db.select().from(operatorSessions).where(eq(operatorSessions.tokenHash, "x"));
    expect(expired).toHaveLength(0);
  });

  it("slows failed logins, then locks the address for a while, for unknown addresses alike", { timeout: 60_000 }, async () => {
    await addOperator(database.db, { email: "locked@example.com", role: "owner", password });
    for (const email of ["locked@example.com", "nobody@example.com"]) {
      const start = new Date("2026-11-23T10:00:00Z");
      const waits: number[] = [];
      const wait = async (ms: number) => void waits.push(ms);
      const results: string[] = [];
      for (let attempt = 0; attempt < throttle.lockAfter; attempt += 1) {
        results.push((await logIn(database.db, email, "wrong password!", { now: new Date(start.getTime() + attempt * 1000), wait })).kind);
      }
      expect(results, email).toEqual([...Array(throttle.lockAfter - 1).fill("refused"), "locked"]);
      expect(waits, email).toEqual([1000, 2000, 4000, 8000, 8000, 8000, 8000]);
      // Locked: even the right password is refused until the lock ends, then it works again.
      const during = await logIn(database.db, email, password, { now: new Date(start.getTime() + 60_000), wait });
      expect(during.kind, email).toBe("locked");
      const after = await logIn(database.db, email, password, { now: new Date(start.getTime() + 16 * 60_000), wait: noWait });
      expect(after.kind, email).toBe(email === "locked@example.com" ? "signed_in" : "refused");
    }
  });

  it("locks after wrong passwords sent at once, as from many addresses, and then refuses the right one", { timeout: 60_000 }, async () => {
    await addOperator(database.db, { email: "crowd@example.com", role: "owner", password });
    const attempts = 2 * throttle.lockAfter;
    const results = await Promise.all(Array.from({ length: attempts }, () => logIn(database.db, "crowd@example.com", "wrong password!", { wait: noWait })));
    expect(results.filter((result) => result.kind === "signed_in")).toEqual([]);
    expect(results.filter((result) => result.kind === "locked").length).toBeGreaterThan(0);
    expect((await logIn(database.db, "crowd@example.com", password, { wait: noWait })).kind).toBe("locked");
  });

  it("lets the right password in after fewer failures than the lock needs", { timeout: 30_000 }, async () => {
    await addOperator(database.db, { email: "almost@example.com", role: "owner", password });
    await Promise.all(Array.from({ length: throttle.lockAfter - 1 }, () => logIn(database.db, "almost@example.com", "wrong password!", { wait: noWait })));
    expect((await logIn(database.db, "almost@example.com", password, { wait: noWait })).kind).toBe("signed_in");
  });

  it("forgets failures older than the window", { timeout: 30_000 }, async () => {
    await addOperator(database.db, { email: "slow@example.com", role: "support", password });
    const start = new Date("2026-11-23T11:00:00Z");
    const waits: number[] = [];
    const wait = async (ms: number) => void waits.push(ms);
    for (let attempt = 0; attempt < 4; attempt += 1) await logIn(database.db, "slow@example.com", "nope nope nope", { now: start, wait });
    expect(waits).toEqual([1000]);
    const later = await logIn(database.db, "slow@example.com", password, { now: new Date(start.getTime() + throttle.windowMs + 1), wait });
    expect(later.kind).toBe("signed_in");
    expect(waits).toEqual([1000]);
  });
});
