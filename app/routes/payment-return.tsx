import { useLoaderData } from "react-router";
import type { Route } from "./+types/payment-return";
import { returnFromProvider } from "../checkout/checkout.server";
import { PageIntro } from "../chrome/page-intro";
import { ReturnElsewherePage } from "../checkout/return-elsewhere";
import { funnelTextsFor } from "../funnel/content.server";
import { FunnelLink } from "../funnel/funnel-link";
import { returnTarget } from "../funnel/payment-return-target";
import { storefrontStateContext } from "../market/request-context";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Back from the provider's pages with a payment: the order follows what the provider says, and the buyer moves on.
  const payment = new URL(request.url).searchParams.get("payment");
  if (payment) return returnFromProvider({ request, params: { payment } });
  const { market, lang } = context.get(storefrontStateContext);
  return { target: returnTarget(params.from, market.routeValue), label: funnelTextsFor(lang).paymentReturn.continue };
}

export default function PaymentReturnPage() {
  const loaded = useLoaderData<typeof loader>();
  if ("elsewhere" in loaded) return <ReturnElsewherePage state={loaded.state} texts={loaded.texts} />;
  const { target, label } = loaded;
  return (
    <PageIntro messagePrefix="pages.paymentReturn">
      <FunnelLink to={target} className="button button--primary" data-testid="payment-return-continue">
        {label}
      </FunnelLink>
    </PageIntro>
  );
}
