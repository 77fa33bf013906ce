import { FunnelLink } from "../funnel/funnel-link";
import { useLocalizedPath } from "../funnel/localized-path";
import type { PlainRouteName } from "../funnel/route-table";

/** The call to action that leads to the next step of the funnel, in the visitor's market. */
interface NextStepLinkProps {
  to: PlainRouteName;
  label: string;
  testId?: string;
  className?: string;
  onClick?: () => void;
}

export function NextStepLink({ to, label, testId, className = "button button--primary", onClick }: NextStepLinkProps) {
  return (
    <FunnelLink to={useLocalizedPath(to)} className={className} data-testid={testId} onClick={onClick}>
      {label}
    </FunnelLink>
  );
}
