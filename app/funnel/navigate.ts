import { useCallback } from "react";
import { useLocation, useNavigate } from "react-router";
import { checkNavigationTarget, isExternalUrl, type NavigationTargetOptions } from "../platform/navigation";
import { withQuery } from "./paths";

/**
 * `navigateTo(target)` moves within the funnel keeping the query string; an external URL is
 * refused unless `{ external: true }` is passed, and then it is a full page load.
 */
export function useNavigateTo() {
  const navigate = useNavigate();
  const { search } = useLocation();
  return useCallback(
    (target: string, options: NavigationTargetOptions = {}) => {
      checkNavigationTarget(target, options);
      if (isExternalUrl(target)) {
        window.location.assign(target);
        return;
      }
      void navigate(withQuery(target, search));
    },
    [navigate, search],
  );
}
