import { useLoaderData } from "react-router";
import type { Route } from "./+types/checkout-return";
import { returnFromProvider } from "../checkout/checkout.server";
import { ReturnElsewherePage } from "../checkout/return-elsewhere";

/** The payment provider's pages send the buyer back here: a redirect onward, or in another browser the payment's state. */
export function loader(args: Route.LoaderArgs) {
  return returnFromProvider(args);
}

export default function CheckoutReturnPage() {
  const { state, texts } = useLoaderData<typeof loader>();
  return <ReturnElsewherePage state={state} texts={texts} />;
}
