import type { Route } from "./+types/checkout-return";
import { returnFromProvider } from "../checkout/checkout.server";

/** The payment provider's pages send the buyer back here; the answer is a redirect onward. */
export function loader(args: Route.LoaderArgs) {
  return returnFromProvider(args);
}
