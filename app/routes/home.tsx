import { NextStepLink } from "../chrome/next-step-link";
import { PageIntro } from "../chrome/page-intro";
import { useTranslate } from "../market/translate";

export default function HomePage() {
  const t = useTranslate();
  return (
    <PageIntro messagePrefix="pages.home">
      <NextStepLink to="take" label={t("common.orderNow")} testId="next-step" />
    </PageIntro>
  );
}
