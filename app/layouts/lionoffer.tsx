import { Outlet } from "react-router";
import { OfferBanner } from "../chrome/offer-banner";
import { PageFrame } from "../chrome/page-frame";

/** The offer design of /lionoffer. */
export default function LionOfferLayout() {
  return (
    <PageFrame width="wide" banner={<OfferBanner />}>
      <Outlet />
    </PageFrame>
  );
}
