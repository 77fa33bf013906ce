import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** Sale pages: known to the specification, used by no route yet. */
export default function SaleLayout() {
  return (
    <PageFrame width="wide" offerBanner>
      <Outlet />
    </PageFrame>
  );
}
