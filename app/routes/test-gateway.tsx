import { Form, useLoaderData } from "react-router";
import type { Route } from "./+types/test-gateway";
import { useStorefront } from "../market/storefront-context";
import { answerGatewayPage, loadGatewayPage } from "../checkout/test-gateway-page.server";

export function loader({ params }: Route.LoaderArgs) {
  return loadGatewayPage(params.step, params.charge);
}

export function action({ params, request }: Route.ActionArgs) {
  return answerGatewayPage(params.charge, request);
}

export function headers(): HeadersInit {
  return { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex" };
}

/** The test gateway's authentication or bank page, standing where a provider's page would. */
export default function TestGatewayPage({ params }: Route.ComponentProps) {
  const { texts, charge, languageTag } = useLoaderData<typeof loader>();
  const bank = params.step === "bank";
  const brand = useStorefront().config.brand;
  return (
    <main id="main" className="gateway" lang={languageTag}>
      <title>{texts.title}</title>
      <meta name="robots" content="noindex" />
      <p className="gateway__badge">{texts.title}</p>
      {charge ? (
        <>
          <h1>{bank ? texts.bankHeading : texts.authenticateHeading}</h1>
          <p>{bank ? texts.bankText : texts.authenticateText}</p>
          <dl className="gateway__facts">
            <dt>{texts.merchant}</dt>
            <dd>{brand}</dd>
            <dt>{texts.amount}</dt>
            <dd>{new Intl.NumberFormat(languageTag, { style: "currency", currency: charge.currency }).format(charge.amountMinor / 100)}</dd>
          </dl>
          <Form method="post" className="gateway__actions">
            <button type="submit" name="answer" value="approve" className="button button--primary" data-testid="gateway-approve">
              {texts.approve}
            </button>
            <button type="submit" name="answer" value="decline" className="button" data-testid="gateway-decline">
              {texts.decline}
            </button>
          </Form>
        </>
      ) : (
        <h1>{texts.unknown}</h1>
      )}
    </main>
  );
}
