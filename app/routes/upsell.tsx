import { NextStepLink } from "../chrome/next-step-link";
import { PageIntro } from "../chrome/page-intro";
import { useTranslate } from "../market/translate";

export default function UpsellPage() {
  const t = useTranslate();
  return (
    <PageIntro messagePrefix="pages.upsell">
      <NextStepLink to="thankyou" label={t("common.continue")} testId="next-step" />
    </PageIntro>
  );
}
