import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** Offer pages: room for the bundle cards side by side. */
export default function OfferLayout() {
  return (
    <PageFrame width="wide" offerBanner>
      <Outlet />
    </PageFrame>
  );
}
