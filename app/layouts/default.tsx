import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** The landing page: header, content, footer. */
export default function DefaultLayout() {
  return (
    <PageFrame width="regular">
      <Outlet />
    </PageFrame>
  );
}
