import { useEffect } from "react";
import { data, useLoaderData } from "react-router";
import { useAnalytics } from "../analytics/analytics";
import type { Route } from "./+types/thank-you";
import { GuaranteeNote } from "../offer/guarantee-note";
import { commerceTextsFor, type CommerceTexts } from "../orders/commerce-texts.server";
import { OrderSummary } from "../checkout/order-summary";
import { TestModeNotice } from "../checkout/test-mode-notice";
import { PageIntro } from "../chrome/page-intro";
import { funnelTextsFor } from "../funnel/content.server";
import { storefrontStateContext } from "../market/request-context";
import type { CurrencyCode } from "../market/markets";
import { useStorefront } from "../market/storefront-context";
import { cookieOrder, orderView, type OrderView } from "../upsells/order-page.server";
import { ownDownloads } from "../upsells/own-downloads.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { lang } = context.get(storefrontStateContext);
  const texts = funnelTextsFor(lang).thankYou;
  const ownOrder = await cookieOrder(request);
  const order = await orderView(ownOrder, { endsFunnel: true });
  if (!ownOrder || !order) return { texts, order: null, downloads: null, orderTexts: null };
  const { order: commerceOrderTexts, checkout } = commerceTextsFor(lang);
  // The download texts are formatted here: their messages never travel to the browser.
  const { downloadLink, downloadNote, ...orderTexts } = commerceOrderTexts;
  const downloads = await ownDownloads(ownOrder, { downloadLink, downloadNote });
  return data(
    { texts, order, downloads, orderTexts: { ...orderTexts, summary: { delivery: checkout.delivery, deliveryFree: checkout.deliveryFree, vatIncluded: checkout.vatIncluded, total: checkout.total, discountLine: checkout.code.line } } },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export function headers({ loaderHeaders, parentHeaders }: Route.HeadersArgs): Headers {
  const headers = new Headers(parentHeaders);
  const cache = loaderHeaders.get("Cache-Control");
  if (cache) headers.set("Cache-Control", cache);
  return headers;
}

/**
 * What happens next for this order: the parcel only with goods, downloads only with digital items,
 * pointing to the page's own downloads section only when it shows links.
 */
function nextSteps(order: Pick<OrderView, "paid" | "lines">, texts: Pick<CommerceTexts["order"], "nextStepsPaid" | "nextStepsPending">, linksShown: boolean): string[] {
  if (!order.paid) return texts.nextStepsPending;
  const steps = texts.nextStepsPaid;
  return [
    steps.confirmation,
    ...(order.lines.some((line) => line.kind !== "digital") ? [steps.parcel] : []),
    ...(order.lines.some((line) => line.kind === "digital") ? [linksShown ? steps.digital : steps.digitalByEmail] : []),
  ];
}

/** With the buyer's order: its number, lines, totals and address; without one, the generic page. */
export default function ThankYouPage() {
  const { texts, order, downloads, orderTexts } = useLoaderData<typeof loader>();
  const { market } = useStorefront();
  const { reportPurchase } = useAnalytics();
  const paid = order?.paid ? order : null;
  useEffect(() => {
    if (paid) reportPurchase({ orderNumber: paid.number, totalMinor: paid.totalMinor, currency: paid.currency });
  }, [paid, reportPurchase]);
  return (
    <PageIntro messagePrefix="pages.thankYou">
      {order && orderTexts ? (
        <>
          {order.test ? <TestModeNotice /> : null}
          <p className="order-number">
            {orderTexts.numberLabel}: <strong data-testid="order-number">{order.number}</strong>
          </p>
          <OrderSummary
            title={orderTexts.linesTitle}
            lines={order.lines}
            currency={order.currency as CurrencyCode}
            deliveryMinor={order.deliveryMinor}
            vatMinor={order.vatMinor}
            totalMinor={order.totalMinor}
            discount={order.discount}
            labels={orderTexts.summary}
          />
          {downloads && downloads.links.length > 0 ? (
            <section aria-labelledby="downloads-title">
              <h2 id="downloads-title">{orderTexts.downloadsTitle}</h2>
              <ul className="order-downloads">
                {downloads.links.map((link) => (
                  <li key={link.href}>
                    <a href={link.href} data-testid="download-link" download>
                      {link.label}
                    </a>
                  </li>
                ))}
              </ul>
              <p>{downloads.note}</p>
            </section>
          ) : null}
          <section aria-labelledby="delivery-address-title">
            <h2 id="delivery-address-title">{orderTexts.addressTitle}</h2>
            <address className="order-address">
              {order.address.map((line) => (
                <span key={line}>{line}</span>
              ))}
              <span suppressHydrationWarning>{new Intl.DisplayNames([market.languageTag], { type: "region" }).of(order.country)}</span>
            </address>
          </section>
          <section aria-labelledby="next-steps-title">
            <h2 id="next-steps-title">{orderTexts.nextStepsTitle}</h2>
            {order.paid ? null : <p className="order-status">{orderTexts.paymentPending}</p>}
            <ol>
              {nextSteps(order, orderTexts, Boolean(downloads && downloads.links.length > 0)).map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </section>
        </>
      ) : (
        <section aria-labelledby="next-steps-title">
          <h2 id="next-steps-title">{texts.nextStepsTitle}</h2>
          <ol>
            {texts.nextSteps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </section>
      )}
      <GuaranteeNote title={texts.guaranteeTitle} text={texts.guaranteeText} />
    </PageIntro>
  );
}
