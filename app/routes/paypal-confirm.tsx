import { useLoaderData } from "react-router";
import type { Route } from "./+types/paypal-confirm";
import { returnFromProvider } from "../checkout/checkout.server";
import { PageIntro } from "../chrome/page-intro";
import { ReturnElsewherePage } from "../checkout/return-elsewhere";
import { funnelTextsFor } from "../funnel/content.server";
import { FunnelLink } from "../funnel/funnel-link";
import { confirmTarget } from "../payments/paypal/paypal-confirm-target";
import { storefrontStateContext } from "../market/request-context";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  // Back from PayPal with a payment: the order follows what PayPal says, and the buyer moves on.
  const payment = new URL(request.url).searchParams.get("payment");
  if (payment) return returnFromProvider({ request, params: { payment } });
  const { market, lang } = context.get(storefrontStateContext);
  return { target: confirmTarget(params.from, market.routeValue), label: funnelTextsFor(lang).paypalConfirm.continue };
}

export default function PaypalConfirmPage() {
  const loaded = useLoaderData<typeof loader>();
  if ("elsewhere" in loaded) return <ReturnElsewherePage state={loaded.state} texts={loaded.texts} />;
  const { target, label } = loaded;
  return (
    <PageIntro messagePrefix="pages.paypalConfirm">
      <FunnelLink to={target} className="button button--primary" data-testid="paypal-continue">
        {label}
      </FunnelLink>
    </PageIntro>
  );
}
