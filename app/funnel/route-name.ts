import { useMatches } from "react-router";

/** The named route being shown (route ids are route names); `not-found` for anything else. */
export function useRouteName(): string {
  return useMatches().at(-1)?.id ?? "not-found";
}
