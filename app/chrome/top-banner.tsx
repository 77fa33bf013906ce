import { bannerSavingsPercent, type OfferView } from "../catalog/offer-view";
import { Percent } from "../market/money-text";
import { useTranslate } from "../market/translate";
import { Countdown } from "./countdown";

/**
 * The offer's savings (the second product's genuine reduction, from the catalog), delivery and
 * money-back notes, and the countdown. Without a genuine reduction there is no savings message.
 */
export function TopBanner({ offer }: { offer: OfferView }) {
  const t = useTranslate();
  const percent = bannerSavingsPercent(offer);
  const second = offer.lines[1];
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
      <Countdown offerId={offer.id} minutes={offer.countdownMinutes} />
    </aside>
  );
}
