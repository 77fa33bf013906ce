import { memoryStorage } from "../test-support/memory-storage";
import { describe, expect, it } from "vitest";
import { claimFullLoad, reloadGuardKey } from "./reload-guard";


describe("claimFullLoad", () => {
  const now = 1_800_000_000_000;

  it("allows the first full load and stores the guard for 10 seconds", () => {
    const storage = memoryStorage();
    expect(claimFullLoad("/upsell/fr?src=v1", storage, now)).toBe(true);
    expect(JSON.parse(storage.getItem(reloadGuardKey) ?? "")).toEqual({ path: "/upsell/fr?src=v1", expires: now + 10_000 });
  });

  it.each([
    ["the same path within 10 s", "/upsell/fr", now + 9_999, false],
    ["the same path after 10 s", "/upsell/fr", now + 10_000, true],
    ["another path at once", "/thankyou/fr", now + 1, true],
  ])("%s: %s", (_name, path, at, allowed) => {
    const storage = memoryStorage();
    claimFullLoad("/upsell/fr", storage, now);
    expect(claimFullLoad(path, storage, at)).toBe(allowed);
  });

  it.each(["not json", '{"path":1}', "null"])("ignores a tampered guard %j", (value) => {
    expect(claimFullLoad("/upsell/fr", memoryStorage({ [reloadGuardKey]: value }), now)).toBe(true);
  });
});
