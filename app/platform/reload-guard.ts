/**
 * Chunk-load failures (decision 0010): the navigation becomes a full load of its
 * target, unless the same target already failed in the last 10 seconds (a loop guard kept in
 * sessionStorage), in which case the app stays and shows its error page.
 */
export const reloadGuardKey = "vitanor:chunk-reload";
export const reloadGuardMs = 10_000;

interface GuardEntry {
  path: string;
  expires: number;
}

function readEntry(storage: Storage): GuardEntry | null {
  try {
    const entry = JSON.parse(storage.getItem(reloadGuardKey) ?? "null") as Partial<GuardEntry> | null;
    return entry && typeof entry.path === "string" && typeof entry.expires === "number" ? (entry as GuardEntry) : null;
  } catch {
    return null;
  }
}

/** Whether a full load of `path` may start now; if so, the guard is set for it. */
export function claimFullLoad(path: string, storage: Storage, now: number): boolean {
  const entry = readEntry(storage);
  if (entry && entry.path === path && entry.expires > now) return false;
  try {
    storage.setItem(reloadGuardKey, JSON.stringify({ path, expires: now + reloadGuardMs }));
  } catch {
    // Without storage there is no guard; a second failure would reload once more, then the browser's own.
  }
  return true;
}
