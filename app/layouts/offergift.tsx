import { Outlet } from "react-router";
import { OfferBanner } from "../chrome/offer-banner";
import { PageFrame } from "../chrome/page-frame";

/** Gift offers: known to the specification, used by no route yet. */
export default function OfferGiftLayout() {
  return (
    <PageFrame width="wide" banner={<OfferBanner />}>
      <Outlet />
    </PageFrame>
  );
}
