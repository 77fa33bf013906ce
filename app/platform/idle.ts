/**
 * Scheduling for start-up work that neither the first paint nor the first interaction needs
 * (docs/decisions/0020-hydration-cost.md): it runs in tasks of its own once the page has loaded,
 * instead of inside the long task that hydration ends with.
 */

type Cancel = () => void;

/** How long start-up work waits for the `load` event at most (a slow image must not hold it back). */
export const loadWaitLimitMs = 3000;
/** How long an idle callback may be put off while the browser stays busy. */
const idleTimeoutMs = 2000;

/** Runs `task` when the browser is idle; a zero timeout where `requestIdleCallback` is missing (Safari). */
export function whenIdle(task: () => void): Cancel {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(() => task(), { timeout: idleTimeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(task, 0);
  return () => clearTimeout(handle);
}

let settled = false;

/**
 * Runs `task` once the document has loaded (or after `loadWaitLimitMs`) and the browser is idle.
 * Once the page has settled like this, later calls (after client-side navigations) run at once.
 */
export function afterPageLoad(task: () => void): Cancel {
  if (settled) {
    task();
    return () => undefined;
  }
  let cancelIdle: Cancel | undefined;
  let limit: ReturnType<typeof setTimeout> | undefined;
  const run = () => {
    window.removeEventListener("load", run);
    clearTimeout(limit);
    cancelIdle = whenIdle(() => {
      settled = true;
      task();
    });
  };
  if (document.readyState === "complete") {
    run();
  } else {
    window.addEventListener("load", run, { once: true });
    limit = setTimeout(run, loadWaitLimitMs);
  }
  return () => {
    window.removeEventListener("load", run);
    clearTimeout(limit);
    cancelIdle?.();
  };
}
