import { Outlet } from "react-router";
import { OfferBanner } from "../chrome/offer-banner";
import { PageFrame } from "../chrome/page-frame";

/** The second offer design, used by /take2. */
export default function Offer2Layout() {
  return (
    <PageFrame width="wide" banner={<OfferBanner />}>
      <Outlet />
    </PageFrame>
  );
}
