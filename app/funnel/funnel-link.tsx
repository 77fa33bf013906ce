import { useRef, useState, type ComponentProps, type MouseEvent } from "react";
import { Link, useNavigate } from "react-router";
import { prepareNavigation } from "./navigation-guard";
import { usePrefetchWhenVisible } from "./prefetch";
import { useCarriedSearch } from "./carried-search";
import { withQuery } from "./paths";

type FunnelLinkProps = Omit<ComponentProps<typeof Link>, "to"> & { to: string };

function opensElsewhere(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.currentTarget.target === "_blank";
}

/**
 * An in-app link that carries the current query string (UTM and funnel parameters), prefetches
 * its page's code once visible after the app is idle, and loads that code before navigating so a
 * failed chunk becomes a full load of the target.
 */
export function FunnelLink({ to, onClick, ...props }: FunnelLinkProps) {
  const search = useCarriedSearch();
  const navigate = useNavigate();
  const element = useRef<HTMLAnchorElement>(null);
  // Throwing from a state update hands an asynchronous failure to the route's error boundary.
  const [, raise] = useState<never>();
  const href = withQuery(to, search);
  usePrefetchWhenVisible(element, to.split(/[?#]/, 1)[0] ?? to);

  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || opensElsewhere(event)) return;
    event.preventDefault();
    prepareNavigation(href).then(
      () => navigate(href, { replace: props.replace, state: props.state, preventScrollReset: props.preventScrollReset }),
      (error: unknown) =>
        raise(() => {
          throw error;
        }),
    );
  };
  return <Link ref={element} to={href} onClick={handleClick} {...props} />;
}
