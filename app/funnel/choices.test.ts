import { memoryStorage } from "../test-support/memory-storage";
import { describe, expect, it } from "vitest";
import { readChoices, recordChoice } from "./choices";


describe("session choices", () => {
  it("records choices in order, the latest about a bundle winning", () => {
    const store = memoryStorage();
    recordChoice({ bundleId: "shape-3", accepted: true }, store);
    recordChoice({ bundleId: "ebook-1", accepted: false }, store);
    recordChoice({ bundleId: "ebook-1", accepted: true }, store);
    expect(readChoices(store)).toEqual([
      { bundleId: "shape-3", accepted: true },
      { bundleId: "ebook-1", accepted: true },
    ]);
  });

  it.each(["not json", "{}", '[{"bundleId":1}]', '"x"'])("ignores tampered content %j", (value) => {
    expect(readChoices(memoryStorage({ "vitanor:choices": value }))).toEqual([]);
  });
});
