import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { ErrorPage } from "../chrome/error-page";
import { notFoundForPath, type ErrorPayload } from "../chrome/error-payload";

/** Catches every unmatched URL so the root loader still runs and the 404 page is translated. */
export function loader({ request }: Route.LoaderArgs) {
  const payload: ErrorPayload = { message: notFoundForPath(new URL(request.url).pathname) };
  throw data(payload, { status: 404 });
}

// The loader always throws, so the root error boundary renders instead; a route needs a
// component to be a page rather than a resource route.
export default function NotFound() {
  return <ErrorPage message={undefined} />;
}
