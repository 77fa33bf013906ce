import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** Thank-you pages. */
export default function ThankYouLayout() {
  return (
    <PageFrame width="regular">
      <Outlet />
    </PageFrame>
  );
}
