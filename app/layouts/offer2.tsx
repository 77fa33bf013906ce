import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** The second offer design, used by /take2. */
export default function Offer2Layout() {
  return (
    <PageFrame width="wide" offerBanner>
      <Outlet />
    </PageFrame>
  );
}
