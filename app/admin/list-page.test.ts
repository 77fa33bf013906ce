import { describe, expect, it } from "vitest";
import { listPage, maxListPage } from "./list-page";

describe("listPage", () => {
  it.each([
    [null, 1],
    ["", 1],
    ["1", 1],
    ["7", 7],
    [" 12 ", 12],
    [String(maxListPage), maxListPage],
    [String(maxListPage + 1), 1],
    ["1e300", 1],
    ["99999999999999999999", 1],
    ["-1", 1],
    ["0", 1],
    ["2.5", 1],
    ["0x10", 1],
    ["abc", 1],
    ["Infinity", 1],
    [1e300, 1],
    [Number.NaN, 1],
    [-3, 1],
    [3, 3],
  ] as const)("reads %j as page %i", (value, page) => {
    expect(listPage(value)).toBe(page);
  });
});
