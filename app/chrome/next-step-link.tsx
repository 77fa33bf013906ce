import { FunnelLink } from "../funnel/funnel-link";
import { useLocalizedPath } from "../funnel/localized-path";
import type { PlainRouteName } from "../funnel/route-table";

/** The call to action that leads to the next step of the funnel, in the visitor's market. */
export function NextStepLink({ to, label, testId }: { to: PlainRouteName; label: string; testId?: string }) {
  return (
    <FunnelLink to={useLocalizedPath(to)} className="button button--primary" data-testid={testId}>
      {label}
    </FunnelLink>
  );
}
