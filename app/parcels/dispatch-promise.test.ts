import { describe, expect, it } from "vitest";
import { dispatchDeadline, isOverdue } from "./dispatch-promise";

// The markets' rule in content/commerce/delivery.json: cut-off 14:00 local time, Monday to Friday,
// closed on 24, 25 and 31 December and 1 January.
describe("the promised dispatch time, as the storefront's countdown promises it", () => {
  it.each([
    ["DE", "before the cut-off on a Tuesday (10:00 in Berlin)", "2026-11-24T09:00:00Z", "2026-11-24T13:00:00Z"],
    ["DE", "after the cut-off on a Tuesday (15:00 in Berlin)", "2026-11-24T14:00:00Z", "2026-11-25T13:00:00Z"],
    ["DE", "on a Friday evening", "2026-11-27T18:00:00Z", "2026-11-30T13:00:00Z"],
    ["DE", "on a Saturday", "2026-11-28T10:00:00Z", "2026-11-30T13:00:00Z"],
    ["DE", "on a closed day (24 December)", "2026-12-24T08:00:00Z", "2026-12-28T13:00:00Z"],
    ["DE", "after the cut-off on the eve of two closed days", "2026-12-23T15:00:00Z", "2026-12-28T13:00:00Z"],
    ["DE", "at 13:30 in Berlin on a Friday, before its cut-off", "2026-11-27T12:30:00Z", "2026-11-27T13:00:00Z"],
    ["FI", "at the same moment, 14:30 in Helsinki, past its cut-off", "2026-11-27T12:30:00Z", "2026-11-30T12:00:00Z"],
    ["FI", "late on Sunday in UTC, already Monday morning in Helsinki", "2026-11-29T23:30:00Z", "2026-11-30T12:00:00Z"],
    ["GB", "before the cut-off on a Friday (13:30 in London)", "2026-11-27T13:30:00Z", "2026-11-27T14:00:00Z"],
    ["GB", "after the cut-off before New Year's closed days", "2026-12-30T15:00:00Z", "2027-01-04T14:00:00Z"],
    ["SE", "after the cut-off in summer time (15:00 in Stockholm)", "2026-07-01T13:00:00Z", "2026-07-02T12:00:00Z"],
  ])("in %s, for an order paid %s", (market, _, paid, due) => {
    expect(dispatchDeadline(new Date(paid), market).toISOString()).toBe(new Date(due).toISOString());
  });

  it("marks an order overdue only once its cut-off has passed", () => {
    const paid = new Date("2026-11-27T18:00:00Z");
    expect(isOverdue(paid, "DE", new Date("2026-11-30T13:00:00Z"))).toBe(false);
    expect(isOverdue(paid, "DE", new Date("2026-11-30T13:00:01Z"))).toBe(true);
  });

  it("refuses a market the store does not have rather than guess its promise", () => {
    expect(() => dispatchDeadline(new Date("2026-11-27T18:00:00Z"), "XX")).toThrow(/No market XX/);
  });
});
