import { useEffect } from "react";
import { buildId } from "../platform/build-info";
import { fetchOwnBuildMeta, watchForNewBuild } from "../platform/build-check";
import { afterPageLoad } from "../platform/idle";
import { handlePreloadError, markNewBuild } from "./navigation-guard";
import { fetchRuntimeSettings } from "../platform/runtime-settings";

/** Starts the platform's background work once the page has loaded; chunk failures are caught from the start. */
export function PlatformWatchers() {
  useEffect(() => {
    window.addEventListener("vite:preloadError", handlePreloadError);
    let stopWatching: (() => void) | undefined;
    let ownMeta: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const cancelStart = afterPageLoad(() => {
      ownMeta = setTimeout(() => fetchOwnBuildMeta(buildId), 1000);
      void fetchRuntimeSettings().then(({ buildCheckIntervalMs }) => {
        if (!cancelled) stopWatching = watchForNewBuild(buildId, buildCheckIntervalMs, markNewBuild);
      });
    });
    return () => {
      cancelled = true;
      cancelStart();
      clearTimeout(ownMeta);
      stopWatching?.();
      window.removeEventListener("vite:preloadError", handlePreloadError);
    };
  }, []);
  return null;
}
