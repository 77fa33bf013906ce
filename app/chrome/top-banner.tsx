import { useMemo } from "react";
import { bannerSavingsPercent, offerEndsAt, type OfferView } from "../catalog/offer-view";
import { useOfferNow } from "../catalog/page-offer";
import type { DispatchRule } from "../market/dispatch";
import { Percent } from "../market/money-text";
import { useStorefront } from "../market/storefront-context";
import { useTranslate } from "../market/translate";
import { Countdown } from "./countdown";

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
      <Countdown source={source} />
    </aside>
  );
}
