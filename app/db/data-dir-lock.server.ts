import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * PGlite keeps its database in a directory that only one process may open: two processes corrupt
 * it silently and for good (DESIGN §11). The directory is therefore locked by a file holding the
 * owner's pid; a second server is refused while that process lives, and a stale lock is taken over.
 */
export class DataDirLockedError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const lockFile = join(dir, "server.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: "wx" });
      return () => {
        try {
          if (readFileSync(lockFile, "utf8") === String(process.pid)) rmSync(lockFile);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number(readFileSync(lockFile, "utf8").trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
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
