import { memo, Suspense, useMemo } from "react";
import { bannerSavingsPercent, offerEndsAt, type OfferView } from "../catalog/offer-view";
import { useOfferNow } from "../catalog/page-offer";
import type { DispatchRule } from "../market/dispatch";
import { Percent } from "../market/money-text";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { deferredComponent } from "../platform/deferred-component";
import type { CountdownSource } from "./countdown";

// The countdown's clock (the market's zone and dispatch days, the ticking) hydrates next to the
// page instead of inside its first render; until its code arrives the server's text stays, as
// it would anyway until the page has loaded (docs/decisions/0020-hydration-cost.md).
const Countdown = deferredComponent(() => import("./countdown").then((module) => module.Countdown));

/**
 * The banner renders again right after hydration (the offer re-priced at the browser's clock);
 * new props would make React give up the countdown's server HTML if its code had not arrived yet,
 * so the slot renders again only when its source changes.
 */
const CountdownSlot = memo(function CountdownSlot({ source }: { source: CountdownSource }) {
  return (
    <Suspense fallback={null}>
      <Countdown source={source} />
    </Suspense>
  );
});

/**
 * The offer's savings (the second product's genuine reduction, from the catalog, while it runs),
 * delivery and money-back notes, and the countdown to the reduction's end or today's dispatch
 * cut-off. Without a genuine reduction there is no savings message.
 */
export function TopBanner({ offer, dispatch }: { offer: OfferView; dispatch: DispatchRule }) {
  const t = useTranslate();
  const { timeZone } = useStorefront().market;
  const now = useOfferNow(offer);
  const percent = bannerSavingsPercent(now);
  const second = now.lines[1];
  const endsAt = offerEndsAt(offer);
  const source = useMemo(() => ({ pricedAt: offer.pricedAt, offerEndsAt: endsAt, dispatch: { rule: dispatch, timeZone } }), [offer.pricedAt, endsAt, dispatch, timeZone]);
  return (
    <aside className="top-banner" data-testid="top-banner" aria-label={t("banner.label")}>
      {percent !== null && second ? (
        <p className="top-banner__offer">
          {t.rich("banner.offer", { percent: <Percent value={percent} testId="savings-percent" />, units: second.units })}
        </p>
      ) : null}
      <ul className="top-banner__notes">
        <li>{t("banner.delivery")}</li>
        <li>{t("banner.guarantee")}</li>
      </ul>
      <CountdownSlot source={source} />
    </aside>
  );
}
