import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { todaysCutoff, type DispatchRule } from "../market/dispatch";
import { useTranslate } from "../market/translate";
import { afterPageLoad } from "../platform/idle";
import { chooseDeadline, formatMinutesSeconds, remainingMs, restartDelayMs, tickMs, type Deadline } from "./countdown-clock";

export interface CountdownSource {
  /** The moment the page's data was made (epoch ms): the first render shows the state of then. */
  pricedAt: number;
  /** The first end of a running reduction on the page, if any (epoch ms). */
  offerEndsAt: number | null;
  dispatch: { rule: DispatchRule; timeZone: string };
}

interface CountdownState {
  deadline: Deadline | null;
  remaining: number;
}

function stateAt(now: number, source: CountdownSource): CountdownState {
  const deadline = chooseDeadline(now, source.offerEndsAt, todaysCutoff(now, source.dispatch.rule, source.dispatch.timeZone));
  return { deadline, remaining: deadline ? remainingMs(deadline.at, now) : 0 };
}

/** The deadline ahead and the time left toward it, ticking every second. */
function useCountdown(source: CountdownSource): CountdownState {
  const { pathname } = useLocation();
  // The first render matches the server's; the browser's clock takes over once the page has loaded.
  const [state, setState] = useState(() => stateAt(source.pricedAt, source));
  const mounted = useRef(false);
  const { pricedAt, offerEndsAt, dispatch } = source;

  useEffect(() => {
    let start: ReturnType<typeof setTimeout> | undefined;
    let interval: ReturnType<typeof setInterval> | undefined;
    const begin = () => {
      const current = stateAt(Date.now(), { pricedAt, offerEndsAt, dispatch });
      setState(current);
      const deadline = current.deadline;
      if (!deadline || current.remaining === 0) return;
      start = setTimeout(() => {
        interval = setInterval(() => {
          const remaining = remainingMs(deadline.at, Date.now());
          setState({ deadline, remaining });
          if (remaining === 0) clearInterval(interval);
        }, tickMs);
      }, restartDelayMs);
    };
    // Reading the zone's clock is start-up work the first paint does not need: on a fresh mount it
    // waits until the page has loaded and is idle (docs/decisions/0020-hydration-cost.md).
    let cancel: (() => void) | undefined;
    if (mounted.current) begin();
    else cancel = afterPageLoad(begin);
    mounted.current = true;
    return () => {
      cancel?.();
      clearTimeout(start);
      clearInterval(interval);
    };
  }, [pricedAt, offerEndsAt, dispatch, pathname]);

  return state;
}

/**
 * `mm:ss` toward a real deadline, in a sentence saying what it is. At zero it stops and blinks (a
 * static highlight with reduced motion) and the sentence says what applies now. Without a deadline
 * ahead today it says when orders ship. `role="timer"` is not announced on every tick.
 */
export function Countdown({ source }: { source: CountdownSource }) {
  const t = useTranslate();
  const { deadline, remaining } = useCountdown(source);
  if (!deadline) {
    return (
      <span className="countdown" data-testid="countdown" data-kind="none">
        {t("countdown.shipsNextWorkingDay")}
      </span>
    );
  }
  const expired = remaining === 0;
  const time = (
    <time className="countdown__time" role="timer" dateTime={`PT${Math.ceil(remaining / 1000)}S`}>
      {formatMinutesSeconds(remaining)}
    </time>
  );
  const ended = deadline.kind === "offer-ends" ? "countdown.offerEnded" : "countdown.shipsNextWorkingDay";
  const running = deadline.kind === "offer-ends" ? "countdown.offerEnds" : "countdown.shipsToday";
  return (
    <span className="countdown" data-testid="countdown" data-kind={deadline.kind} data-expired={expired ? "" : undefined}>
      {expired ? (
        <>
          <span className="countdown__label">{t(ended)}</span> {time}
        </>
      ) : (
        <span className="countdown__label">{t.rich(running, { time })}</span>
      )}
    </span>
  );
}
