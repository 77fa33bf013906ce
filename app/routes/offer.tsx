import { useMatches } from "react-router";
import { NextStepLink } from "../chrome/next-step-link";
import { PageIntro } from "../chrome/page-intro";
import { useTranslate } from "../market/translate";

/** Every offer route renders this template; /offer2 is the advertorial that leads to the offer. */
export default function OfferPage() {
  const t = useTranslate();
  const isAdvertorial = useMatches().at(-1)?.id.startsWith("offer2") ?? false;
  return (
    <PageIntro messagePrefix={isAdvertorial ? "pages.advertorial" : "pages.offer"}>
      <NextStepLink to={isAdvertorial ? "offer" : "upsell"} label={t("common.orderNow")} testId="next-step" />
    </PageIntro>
  );
}
