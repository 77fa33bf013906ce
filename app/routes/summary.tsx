import { NextStepLink } from "../chrome/next-step-link";
import { PageIntro } from "../chrome/page-intro";
import { useTranslate } from "../market/translate";

export default function SummaryPage() {
  const t = useTranslate();
  return (
    <PageIntro messagePrefix="pages.summary">
      <NextStepLink to="offer2" label={t("common.orderNow")} testId="next-step" />
    </PageIntro>
  );
}
