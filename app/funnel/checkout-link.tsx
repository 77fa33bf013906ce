import { FunnelLink } from "./funnel-link";
import { useLocalizedPath } from "./localized-path";

interface CheckoutLinkProps {
  bundleId: string;
  label: string;
  testId?: string;
  /** The element that names what is chosen, for a screen reader's list of links. */
  describedBy?: string;
}

/** Chooses a bundle and leads to the checkout, keeping the funnel's query; it commits to nothing. */
export function CheckoutLink({ bundleId, label, testId, describedBy }: CheckoutLinkProps) {
  const path = useLocalizedPath("checkout");
  return (
    <FunnelLink to={`${path}?bundle=${encodeURIComponent(bundleId)}`} className="button button--primary" data-testid={testId} aria-describedby={describedBy}>
      {label}
    </FunnelLink>
  );
}
