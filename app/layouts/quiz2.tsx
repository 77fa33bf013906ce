import { Outlet } from "react-router";
import { PageFrame } from "../chrome/page-frame";

/** The second quiz design: known to the specification, used by no route yet. */
export default function Quiz2Layout() {
  return (
    <PageFrame width="narrow">
      <Outlet />
    </PageFrame>
  );
}
