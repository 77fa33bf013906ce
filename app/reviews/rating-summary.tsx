import { useEffect, useState } from "react";
import { useStorefront } from "../market/storefront-context";
import { afterPageLoad } from "../platform/idle";
import { ratingSummariesPath, type RatingSummariesData } from "./review-section-data";
import { Stars } from "./stars";

/**
 * The average of every published review in the visitor's language, with the count, linked to how
 * reviews are checked; fetched once the page has loaded (decision record 0022). Its box keeps its
 * height while empty, so that nothing on the first screen moves when it fills; with no published
 * review it stays empty.
 */
export function RatingSummary() {
  const { market } = useStorefront();
  const [summary, setSummary] = useState<RatingSummariesData | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const cancel = afterPageLoad(() => {
      fetch(ratingSummariesPath(market.routeValue), { signal: controller.signal, headers: { Accept: "application/json" } })
        .then((response) => (response.ok ? (response.json() as Promise<RatingSummariesData>) : null))
        .then(setSummary)
        .catch(() => undefined);
    });
    return () => {
      cancel();
      controller.abort();
    };
  }, [market.routeValue]);

  const overall = summary?.overall;
  return (
    <p className="rating-summary" data-testid="rating-summary">
      {overall && summary ? (
        <>
          <Stars value={overall.averageValue} />{" "}
          <a href={summary.policyLink.href} title={summary.policyLink.label}>
            {overall.label}
          </a>
        </>
      ) : null}
    </p>
  );
}
