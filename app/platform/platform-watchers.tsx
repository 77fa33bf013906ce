import { useEffect } from "react";
import { buildId } from "./build-info";
import { fetchOwnBuildMeta, watchForNewBuild } from "./build-check";
import { handlePreloadError, markNewBuild } from "./navigation-guard";
import { fetchRuntimeSettings } from "./runtime-settings";

/** Starts the platform's background work once the page has hydrated. */
export function PlatformWatchers() {
  useEffect(() => {
    window.addEventListener("vite:preloadError", handlePreloadError);
    let stopWatching: (() => void) | undefined;
    let cancelled = false;
    const idle = window.requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 1));
    idle(() => setTimeout(() => fetchOwnBuildMeta(buildId), 1000));
    void fetchRuntimeSettings().then(({ buildCheckIntervalMs }) => {
      if (!cancelled) stopWatching = watchForNewBuild(buildId, buildCheckIntervalMs, markNewBuild);
    });
    return () => {
      cancelled = true;
      stopWatching?.();
      window.removeEventListener("vite:preloadError", handlePreloadError);
    };
  }, []);
  return null;
}
