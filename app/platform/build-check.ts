import { buildMetaPath, latestBuildPath, type LatestBuild } from "./build-info";

/**
 * Watches for a newer build (decision 0010): `latest.json` is checked every
 * interval, the first check one full interval after start; network errors are ignored; after the
 * first detection polling stops and `onNewBuild` is called once.
 */
export function watchForNewBuild(runningId: string, intervalMs: number, onNewBuild: () => void): () => void {
  const timer = setInterval(() => {
    fetch(`${latestBuildPath}?${Date.now()}`)
      .then((response) => (response.ok ? (response.json() as Promise<LatestBuild>) : undefined))
      .then((latest) => {
        if (!latest || latest.id === runningId) return;
        clearInterval(timer);
        onNewBuild();
      })
      .catch(() => undefined);
  }, intervalMs);
  return () => clearInterval(timer);
}

/** The running build's meta file, fetched once after the app is idle (not on slow-2g). */
export function fetchOwnBuildMeta(runningId: string): void {
  const connection = (navigator as Navigator & { connection?: { effectiveType?: string } }).connection;
  if (connection?.effectiveType === "slow-2g") return;
  fetch(buildMetaPath(runningId)).catch(() => undefined);
}
