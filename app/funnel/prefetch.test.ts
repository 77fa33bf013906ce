import { describe, expect, it, vi } from "vitest";
import { createLoadQueue, prefetchAllowed } from "./prefetch";

describe("createLoadQueue", () => {
  it("runs at most four loads at once, the rest waiting, each path once", async () => {
    const started: string[] = [];
    const finishers = new Map<string, () => void>();
    const schedule = createLoadQueue(
      (path) =>
        new Promise<boolean>((resolve) => {
          started.push(path);
          finishers.set(path, () => resolve(true));
        }),
    );
    for (const path of ["/a", "/b", "/c", "/d", "/e", "/f", "/a"]) schedule(path);
    expect(started).toEqual(["/a", "/b", "/c", "/d"]);
    finishers.get("/b")?.();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["/a", "/b", "/c", "/d", "/e"]);
    for (const finish of finishers.values()) finish();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["/a", "/b", "/c", "/d", "/e", "/f"]);
  });

  it("keeps going after a failed load", async () => {
    const started: string[] = [];
    const schedule = createLoadQueue(async (path) => {
      started.push(path);
      throw new Error("offline");
    }, 1);
    schedule("/a");
    schedule("/b");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toEqual(["/a", "/b"]);
  });

  it("tries again later while the route is not discovered yet", async () => {
    vi.useFakeTimers();
    let known = false;
    const started: string[] = [];
    const schedule = createLoadQueue(async (path) => {
      started.push(path);
      return known;
    });
    schedule("/a");
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toEqual(["/a"]);
    known = true;
    await vi.advanceTimersByTimeAsync(500);
    expect(started).toEqual(["/a", "/a"]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(started).toEqual(["/a", "/a"]);
    vi.useRealTimers();
  });
});

describe("prefetchAllowed", () => {
  it.each([
    [undefined, true],
    [{ effectiveType: "4g" }, true],
    [{ effectiveType: "3g" }, true],
    [{ effectiveType: "2g" }, false],
    [{ effectiveType: "slow-2g" }, false],
    [{ saveData: true, effectiveType: "4g" }, false],
  ])("%j → %s", (connection, allowed) => {
    expect(prefetchAllowed(connection)).toBe(allowed);
  });
});
