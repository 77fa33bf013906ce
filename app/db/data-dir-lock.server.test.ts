import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, lockDataDir, parseProcStat } from "./data-dir-lock.server";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A process that lives for a while, and the first line it prints. */
async function start(script: string): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn("sh", ["-c", script], { stdio: ["ignore", "pipe", "ignore"] });
  children.push(child);
  const line = await new Promise<string>((resolve) => child.stdout?.once("data", (chunk: Buffer) => resolve(chunk.toString().trim())));
  return { child, line };
}

const lockedDir = (content: string) => {
  const dir = mkdtempSync(join(tmpdir(), "lock-"));
  writeFileSync(join(dir, "server.lock"), content);
  return dir;
};

describe("parseProcStat", () => {
  it.each([
    ["4242 (node) S 1 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 11 0 123456 1 2", { state: "S", startTime: "123456" }],
    ["77 (odd) name (x)) Z 1 77 77 0 -1 4 0 0 0 0 0 0 0 0 20 0 1 0 999 0 0", { state: "Z", startTime: "999" }],
    ["garbage", null],
  ])("reads %j", (text, parsed) => {
    expect(parseProcStat(text)).toEqual(parsed);
  });
});

describe.runIf(process.platform === "linux")("the data directory's lock", () => {
  it("is refused while a storefront server that holds it lives", () => {
    const dir = mkdtempSync(join(tmpdir(), "lock-"));
    const release = lockDataDir(dir);
    try {
      // This very process holds it: a second lock from another process would be refused; seen from
      // here, the file names a live process whose start time matches.
      expect(readFileSync(join(dir, "server.lock"), "utf8")).toMatch(new RegExp(`^${process.pid} \\d+$`));
    } finally {
      release();
    }
  });

  it("is taken over from a zombie, as after kill -9 under an init that does not reap", async () => {
    // `sleep 0` ends at once, and its parent (exec'd into `sleep 30`) never waits for it.
    const { line } = await start("sleep 0 & echo $!; exec sleep 30");
    const zombie = Number(line);
    await expect.poll(() => parseProcStat(readFileSync(`/proc/${zombie}/stat`, "utf8"))?.state).toBe("Z");
    const release = lockDataDir(lockedDir(String(zombie)));
    release();
  });

  it("is taken over from a pid now used by a process that is not its owner", async () => {
    const { child } = await start("echo up; exec sleep 30");
    const release = lockDataDir(lockedDir(`${child.pid} 1`));
    release();
    const releaseAgain = lockDataDir(lockedDir(String(child.pid)));
    releaseAgain();
  });

  it("is refused to a second server while the owner lives", async () => {
    const { child } = await start(`echo up; exec "${process.execPath}" -e "setTimeout(() => {}, 30000)"`);
    const stat = parseProcStat(readFileSync(`/proc/${child.pid}/stat`, "utf8"));
    expect(() => lockDataDir(lockedDir(`${child.pid} ${stat?.startTime}`))).toThrow(DataDirLockedError);
    expect(() => lockDataDir(lockedDir(String(child.pid)))).toThrow(`in use by another storefront server (pid ${child.pid})`);
  });
});
