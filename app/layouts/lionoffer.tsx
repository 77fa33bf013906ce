import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** The offer design of /lionoffer. */
export default function LionOfferLayout() {
  return (
    <PageFrame width="wide" offerBanner>
      <Outlet />
    </PageFrame>
  );
}
