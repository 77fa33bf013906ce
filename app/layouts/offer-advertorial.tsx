import { Outlet } from "react-router";
import { OfferBanner } from "../chrome/offer-banner";
import { PageFrame } from "../chrome/page-frame";

/** The advertorial: a long-form article column leading to the offer. */
export default function OfferAdvertorialLayout() {
  return (
    <PageFrame width="narrow" banner={<OfferBanner />}>
      <Outlet />
    </PageFrame>
  );
}
