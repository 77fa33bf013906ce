import { Outlet } from "react-router";

/** Pages that bring their own header, or none: upsells, legal pages, product pages, feedback. */
export default function EmptyLayout() {
  return (
    <main id="main" className="page page--regular page--bare" tabIndex={-1}>
      <Outlet />
    </main>
  );
}
