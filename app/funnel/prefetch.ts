import { useEffect, type RefObject } from "react";
import { afterPageLoad } from "../platform/idle";
import { loadRouteModules } from "./route-modules";

const maxParallelPrefetches = 4;

/** How often, and how far apart, a load is retried while its route is still undiscovered. */
const discoveryRetries = 5;
const discoveryRetryMs = 500;

/**
 * A queue that runs at most `limit` loads at once; further ones wait (docs/architecture.md,
 * 'Rules every page keeps'). A load that resolves false (route not known yet) is queued again a
 * little later, a few times.
 */
export function createLoadQueue(load: (path: string) => Promise<boolean>, limit = maxParallelPrefetches) {
  const waiting: string[] = [];
  const attempts = new Map<string, number>();
  let running = 0;
  const pump = () => {
    while (running < limit && waiting.length > 0) {
      const path = waiting.shift() as string;
      running += 1;
      load(path)
        .then((loaded) => {
          const tries = attempts.get(path) ?? 0;
          if (loaded || tries >= discoveryRetries) return;
          attempts.set(path, tries + 1);
          setTimeout(() => {
            waiting.push(path);
            pump();
          }, discoveryRetryMs);
        })
        .catch(() => undefined)
        .finally(() => {
          running -= 1;
          pump();
        });
    }
  };
  return (path: string) => {
    if (attempts.has(path)) return;
    attempts.set(path, 0);
    waiting.push(path);
    pump();
  };
}

const schedule = createLoadQueue(loadRouteModules);

interface NetworkInformation {
  saveData?: boolean;
  effectiveType?: string;
}

/** No prefetching for visitors who asked to save data or are on a 2G connection. */
export function prefetchAllowed(connection: NetworkInformation | undefined): boolean {
  return !connection?.saveData && !/2g/.test(connection?.effectiveType ?? "");
}

/** Prefetches a link's route modules once it is visible, after the page has loaded and the app is idle. */
export function usePrefetchWhenVisible(element: RefObject<HTMLElement | null>, pathname: string): void {
  useEffect(() => {
    const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
    if (!prefetchAllowed(connection) || !("IntersectionObserver" in window)) return;
    let observer: IntersectionObserver | undefined;
    const cancelIdle = afterPageLoad(() => {
      const target = element.current;
      if (!target) return;
      observer = new IntersectionObserver((entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer?.disconnect();
        schedule(pathname);
      });
      observer.observe(target);
    });
    return () => {
      cancelIdle();
      observer?.disconnect();
    };
  }, [element, pathname]);
}
