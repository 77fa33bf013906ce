import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";

// A split test's arm page is answered at the entry's own address, without a redirect
// (docs/decisions/0028-split-tests.md). The router must start from the address the page was
// rendered for, which the page names: the browser shows it from here on, as after a redirect.
const armAddress = document.documentElement.dataset.address;
if (armAddress && armAddress !== location.pathname + location.search) {
  try {
    history.replaceState(history.state, "", armAddress + location.hash);
  } catch {
    // Only a same-origin path gets here, which the browser takes; should it refuse, the router
    // starts at the entry's address rather than the page not starting at all.
  }
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
