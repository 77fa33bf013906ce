import { Outlet } from "react-router";
import { OfferBanner } from "../chrome/offer-banner";
import { PageFrame } from "../chrome/page-frame";

/** Offer pages: room for the bundle cards side by side. */
export default function OfferLayout() {
  return (
    <PageFrame width="wide" banner={<OfferBanner />}>
      <Outlet />
    </PageFrame>
  );
}
