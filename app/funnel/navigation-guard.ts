import { sessionStore } from "../platform/browser-storage";
import { claimFullLoad } from "../platform/reload-guard";
import { loadRouteModules } from "./route-modules";

/** Set once a newer build is seen: the next navigation becomes a full page load. */
let newBuildSeen = false;

export function markNewBuild(): void {
  newBuildSeen = true;
}

const never = () => new Promise<never>(() => undefined);


/** A full load of the target, unless the loop guard says this target failed moments ago. */
function fullLoadIfAllowed(target: string): boolean {
  const storage = sessionStore();
  if (storage && !claimFullLoad(target, storage, Date.now())) return false;
  window.location.assign(target);
  return true;
}

/**
 * Runs before an in-app link navigates: after a new build the navigation becomes a full load;
 * otherwise the target's route modules are loaded first, so that a failed chunk becomes a full
 * load of the target (decision 10) instead of the router reloading the page the
 * visitor is leaving. Rejects when the guard refuses, for the caller to show the error page.
 */
export async function prepareNavigation(target: string): Promise<void> {
  if (newBuildSeen) {
    window.location.assign(target);
    return never();
  }
  try {
    await loadRouteModules(new URL(target, window.location.href).pathname);
  } catch (error) {
    if (fullLoadIfAllowed(target)) return never();
    throw error;
  }
}

/** Back, forward and other navigations not started by a link: only the new-build rule applies. */
export async function guardNavigation<T>(targetUrl: string, next: () => Promise<T>): Promise<T> {
  if (newBuildSeen) {
    const url = new URL(targetUrl);
    window.location.assign(url.pathname + url.search + url.hash);
    return never();
  }
  return next();
}

/** Vite reports failed preloads of our own dynamic imports; they get the same treatment. */
export function handlePreloadError(event: Event): void {
  if (fullLoadIfAllowed(window.location.pathname + window.location.search)) event.preventDefault();
}
