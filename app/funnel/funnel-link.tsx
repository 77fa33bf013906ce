import type { ComponentProps } from "react";
import { Link } from "react-router";
import { useCarriedSearch } from "./carried-search";
import { withQuery } from "./paths";

type FunnelLinkProps = Omit<ComponentProps<typeof Link>, "to"> & { to: string };

/** An in-app link that carries the current query string (UTM and funnel parameters) along. */
export function FunnelLink({ to, ...props }: FunnelLinkProps) {
  const search = useCarriedSearch();
  return <Link to={withQuery(to, search)} {...props} />;
}
