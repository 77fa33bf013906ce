import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * PGlite keeps its database in a directory that only one process may open: two processes corrupt
 * it silently and for good (decision 0012). The directory is therefore locked by a file holding the
 * owner's pid and start time; a second server is refused while that process lives, and a stale
 * lock is taken over. After a `kill -9` the owner may linger as a zombie (under an init that does
 * not reap), or its pid may be reused by another program: neither is a live owner.
 */
export class DataDirLockedError extends Error {}

/** The state letter and start time (clock ticks since boot) of a line of `/proc/<pid>/stat`. */
export function parseProcStat(text: string): { state: string; startTime: string } | null {
  // The command name in parentheses may hold spaces and parentheses: the fields follow the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 1).trim().split(/\s+/);
  const [state, startTime] = [fields[0], fields[19]];
  return text.includes(")") && state && startTime && /^\d+$/.test(startTime) ? { state, startTime } : null;
}

function procStat(pid: number): { state: string; startTime: string } | null | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    // No /proc (not Linux), or the process is gone.
    return undefined;
  }
}

function runsNode(pid: number): boolean {
  try {
    const program = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0] ?? "";
    return /node[^/]*$/.test(program);
  } catch {
    return true;
  }
}

function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the lock's owner still runs: the same process (by start time, or by running Node for a lock without one), not a zombie. */
function ownerLives(pid: number, startTime: string | undefined): boolean {
  if (!signalReaches(pid)) return false;
  const stat = procStat(pid);
  // Without /proc (not Linux) the signal is all there is to go by.
  if (stat === undefined) return !existsSync("/proc/self/stat");
  if (stat === null || stat.state === "Z" || stat.state === "X") return false;
  return startTime ? stat.startTime === startTime : runsNode(pid);
}

const ownStartTime = () => procStat(process.pid)?.startTime;

export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = join(dir, "server.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const ownLock = [process.pid, ownStartTime()].filter(Boolean).join(" ");
      writeFileSync(lockFile, ownLock, { flag: "wx" });
      return () => {
        try {
          if (readFileSync(lockFile, "utf8") === ownLock) rmSync(lockFile);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const [pid = "", startTime] = readFileSync(lockFile, "utf8").trim().split(/\s+/);
    const owner = Number(pid);
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && ownerLives(owner, startTime)) {
      throw new DataDirLockedError(
        `The database in ${dir} is in use by another storefront server (pid ${owner}). ` +
          "The embedded database allows one server process: stop the other one, give this one its own DATA_DIR, " +
          "or set DATABASE_URL to a PostgreSQL server to run several.",
      );
    }
    rmSync(lockFile, { force: true });
  }
  throw new DataDirLockedError(`Could not lock ${lockFile}: another process keeps taking it.`);
}
