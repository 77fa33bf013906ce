import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { useTranslate } from "../market/translate";
import { localStore } from "../platform/browser-storage";
import { afterPageLoad } from "../platform/idle";
import { formatMinutesSeconds, loadDeadline, remainingMs, restartDelayMs, tickMs } from "./countdown-clock";

/** Remaining time toward the visitor's deadline for an offer, ticking every second. */
export function useCountdown(offerId: string, minutes: number): number {
  const windowMs = minutes * 60_000;
  const { pathname } = useLocation();
  // The server cannot know this visitor's deadline; it renders the full window, which is exact for
  // a first visit, and the browser corrects it as soon as the page has loaded.
  const [remaining, setRemaining] = useState(windowMs);
  const mounted = useRef(false);

  useEffect(() => {
    let start: ReturnType<typeof setTimeout> | undefined;
    let interval: ReturnType<typeof setInterval> | undefined;
    const begin = () => {
      const deadline = loadDeadline(localStore(), offerId, Date.now(), windowMs);
      const update = () => {
        const left = remainingMs(deadline, Date.now());
        setRemaining(left);
        return left;
      };
      update();
      start = setTimeout(() => {
        interval = setInterval(() => {
          if (update() === 0) clearInterval(interval);
        }, tickMs);
      }, restartDelayMs);
    };
    // A page's first access to localStorage waits for the browser to open the storage, which can
    // block the main thread for tens of milliseconds: on a fresh mount it waits until the page has
    // loaded and is idle, showing the full window (as the prerendered page does) until then.
    let cancel: (() => void) | undefined;
    if (mounted.current) begin();
    else cancel = afterPageLoad(begin);
    mounted.current = true;
    return () => {
      cancel?.();
      clearTimeout(start);
      clearInterval(interval);
    };
  }, [offerId, windowMs, pathname]);

  return remaining;
}

/**
 * `mm:ss` toward a real deadline. At zero it stops and blinks (a static highlight with reduced
 * motion). `role="timer"` is not announced by screen readers on every tick.
 */
export function Countdown({ offerId, minutes }: { offerId: string; minutes: number }) {
  const t = useTranslate();
  const remaining = useCountdown(offerId, minutes);
  const expired = remaining === 0;
  return (
    <span className="countdown" data-testid="countdown" data-expired={expired ? "" : undefined}>
      <span className="countdown__label">{t(expired ? "countdown.expired" : "countdown.label")}</span>{" "}
      <time className="countdown__time" role="timer" dateTime={`PT${Math.ceil(remaining / 1000)}S`}>
        {formatMinutesSeconds(remaining)}
      </time>
    </span>
  );
}
