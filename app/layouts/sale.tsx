import { Outlet } from "react-router";
import { OfferBanner } from "../chrome/offer-banner";
import { PageFrame } from "../chrome/page-frame";

/** Sale pages: known to the specification, used by no route yet. */
export default function SaleLayout() {
  return (
    <PageFrame width="wide" banner={<OfferBanner />}>
      <Outlet />
    </PageFrame>
  );
}
