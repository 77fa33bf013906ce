import { useLoaderData } from "react-router";
import type { Route } from "./+types/home";
import { loadLandingPage } from "../landing/landing-loader.server";
import { LandingPage } from "../landing/landing-page";
import { RatingSummary } from "../reviews/rating-summary";
import "../landing/landing.css";

export function loader(args: Route.LoaderArgs) {
  return loadLandingPage(args);
}

/** `/` and `/:locale`: the landing page, configured by `content/landing/`. */
export default function HomePage() {
  return <LandingPage view={useLoaderData<typeof loader>()} ratingSummary={<RatingSummary />} />;
}
