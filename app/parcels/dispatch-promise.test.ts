import { describe, expect, it } from "vitest";
import { dispatchDeadline, isOverdue } from "./dispatch-promise";

describe("the promised dispatch time", () => {
  it.each([
    ["a Tuesday", "2026-11-24T14:00:00Z", "2026-11-25T14:00:00Z"],
    ["a Friday", "2026-11-27T15:30:00Z", "2026-11-30T15:30:00Z"],
    ["a Saturday", "2026-11-28T10:00:00Z", "2026-12-01T00:00:00Z"],
    ["a Sunday night", "2026-11-29T23:00:00Z", "2026-12-01T00:00:00Z"],
  ])("for an order paid on %s is one working day later", (_, paid, due) => {
    expect(dispatchDeadline(new Date(paid)).toISOString()).toBe(new Date(due).toISOString());
  });

  it("marks an order overdue only once the deadline has passed", () => {
    const paid = new Date("2026-11-27T15:30:00Z");
    expect(isOverdue(paid, new Date("2026-11-30T15:30:00Z"))).toBe(false);
    expect(isOverdue(paid, new Date("2026-11-30T15:30:01Z"))).toBe(true);
  });
});
