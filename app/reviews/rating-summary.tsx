import { useEffect, useState, type ComponentType } from "react";
import { useStorefront } from "../market/storefront-context";
import { afterPageLoad } from "../platform/idle";
import { ratingSummariesPath, type RatingSummariesData } from "./review-section-data";

type StarsComponent = ComponentType<{ value: number }>;

/** The summary, with the stars' code fetched beside it only when there is a rating to draw. */
async function loadSummary(url: string, signal: AbortSignal): Promise<{ summary: RatingSummariesData; Stars: StarsComponent } | null> {
  const response = await fetch(url, { signal, headers: { Accept: "application/json" } });
  const summary = response.ok ? ((await response.json()) as RatingSummariesData) : null;
  if (!summary?.overall) return null;
  const { Stars } = await import("./stars");
  return { summary, Stars };
}

/**
 * The average of every published review in the visitor's language, with the count, linked to how
 * reviews are checked; fetched once the page has loaded (decision record 0022). Its box keeps its
 * height while empty, so that nothing on the first screen moves when it fills; with no published
 * review it stays empty, and the stars' code is not loaded.
 */
export function RatingSummary() {
  const { market } = useStorefront();
  const [loaded, setLoaded] = useState<{ summary: RatingSummariesData; Stars: StarsComponent } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const cancel = afterPageLoad(() => {
      loadSummary(ratingSummariesPath(market.routeValue), controller.signal)
        .then(setLoaded)
        .catch(() => undefined);
    });
    return () => {
      cancel();
      controller.abort();
    };
  }, [market.routeValue]);

  const overall = loaded?.summary.overall;
  return (
    <p className="rating-summary" data-testid="rating-summary">
      {overall && loaded ? (
        <>
          <loaded.Stars value={overall.averageValue} />{" "}
          <a href={loaded.summary.policyLink.href} title={loaded.summary.policyLink.label}>
            {overall.label}
          </a>
        </>
      ) : null}
    </p>
  );
}
